// The per-address limit runs before authentication and on every route; the key cache keeps failed
// keys apart; failed authentications are counted per address across instances; the limits stay
// on while Redis is down (docs/security.md).
import t from 'tap';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/http/app.js';
import { createApiDeps } from '../../src/http/deps.js';
import { generateApiKey, hashApiKey } from '../../src/partners/api-keys.js';
import { authFailureNamespace, keyCounterName } from '../../src/plugins/rate-limit.js';
import { build, config, eventually, logger, runId } from '../helper.js';

const randomKey = () => ({ authorization: `Bearer ${generateApiKey()}` });

/** Counts the queries the app sends to PostgreSQL from now on. */
function countQueries(pool: { query: (...args: never[]) => unknown }) {
  const query = pool.query;
  let count = 0;
  pool.query = function (this: unknown, ...args: never[]) {
    count++;
    return query.apply(this, args);
  };
  return () => count;
}

t.test('requests with made-up keys from one address get 429 with Retry-After before authentication', async (t) => {
  const { app, deps } = await build(t, { config: { IP_RATE_LIMIT_MAX: 5, QUEUE_PREFIX: `rl-ip-${runId}` } });
  const authenticate = deps.partners.authenticate;
  let authentications = 0;
  deps.partners.authenticate = (key) => {
    authentications++;
    return authenticate(key);
  };
  const answers = [];
  for (let i = 0; i < 8; i++) answers.push(await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress: '203.0.113.10' }));
  t.same(
    answers.map((a) => a.statusCode),
    [401, 401, 401, 401, 401, 429, 429, 429],
  );
  const last = answers.at(-1)!;
  t.equal(last.json().type, 'rate_limited');
  const retryAfter = Number(last.headers['retry-after']);
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  t.equal(authentications, 5, 'requests over the limit never reached authentication');
  const other = await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress: '203.0.113.11' });
  t.equal(other.statusCode, 401, 'another address has a budget of its own');
});

t.test('public routes and unknown routes are limited per address too; an IPv6 /64 counts as one address', async (t) => {
  const { app } = await build(t, { config: { IP_RATE_LIMIT_MAX: 2, QUEUE_PREFIX: `rl-pub-${runId}` } });
  const paths = ['/readyz', '/openapi.json', '/media/0123456789abcdef.jpg', '/nope', '/healthz'];
  for (const [i, path] of paths.entries()) {
    const remoteAddress = `198.51.100.${i + 1}`;
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await app.inject({ url: path, remoteAddress })).statusCode);
    t.not(statuses[0], 429, `${path}: first request served`);
    t.equal(statuses[2], 429, `${path}: third request from the same address refused`);
  }
  const inSameNet = ['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1:ffff::3'];
  const statuses = [];
  for (const remoteAddress of inSameNet) statuses.push((await app.inject({ url: '/healthz', remoteAddress })).statusCode);
  t.same(statuses, [200, 200, 429], 'addresses of one /64 share a counter');
});

t.test('a flood of bad keys evicts no valid key, and a repeated bad key costs no look-up', async (t) => {
  const { app, deps, partner } = await build(t, { config: { AUTH_CACHE_MS: 300_000, QUEUE_PREFIX: `rl-cache-${runId}` } });
  const valid = await partner();
  t.equal((await app.inject({ url: '/de/listings/999999999', headers: valid.auth })).statusCode, 404, 'the valid key is authenticated and remembered');
  const queries = countQueries(deps.database.pool);

  const bad = generateApiKey();
  t.equal(await deps.partners.authenticate(bad), undefined);
  const afterFirst = queries();
  t.ok(afterFirst >= 1, 'a new bad key is looked up');
  for (let i = 0; i < 10; i++) t.equal(await deps.partners.authenticate(bad), undefined);
  t.equal(queries(), afterFirst, 'the same bad key again: no look-up');

  // More bad keys than the cache holds (10 000), a few dozen at a time.
  const FLOOD = 10_500;
  for (let sent = 0; sent < FLOOD; sent += 50) {
    await Promise.all(Array.from({ length: 50 }, () => deps.partners.authenticate(generateApiKey())));
  }
  const beforeValid = queries();
  t.ok(await deps.partners.authenticate(valid.auth.authorization.slice('Bearer '.length)), 'the valid key authenticates');
  t.equal(queries(), beforeValid, 'answered from the cache: the flood did not evict it');
  t.equal((await app.inject({ url: '/de/listings/999999999', headers: valid.auth })).statusCode, 404, 'and works');
});

t.test('two API instances share one per-key count through Redis, synchronised in the background', async (t) => {
  const shared = { RATE_LIMIT_MAX: 4, RATE_LIMIT_WINDOW_MS: 60_000, QUEUE_PREFIX: `rl-shared-${runId}` };
  const first = await build(t, { config: shared });
  const second = await build(t, { config: shared });
  const { auth } = await first.partner();
  const ask = (app: typeof first.app) => app.inject({ url: '/de/listings/999999999', headers: auth });
  // The shared count in Redis, read without adding a hit.
  const counterKey = keyCounterName(shared.QUEUE_PREFIX, hashApiKey(auth.authorization.slice('Bearer '.length)));
  const sharedCount = (redis: Redis, count: number) => eventually(async () => (Number(await redis.get(counterKey)) >= count ? true : undefined), 5000, `the shared count to reach ${count}`);
  for (let i = 0; i < 3; i++) t.equal((await ask(first.app)).statusCode, 404, `request ${i + 1} on the first instance`);
  await sharedCount(first.deps.redis, 3); // the first instance has added its 3 hits to Redis
  const fourth = await ask(second.app);
  t.equal(fourth.statusCode, 404, 'the fourth request, on the second instance, is within the limit');
  // The second learns the shared count from the answer to its own sync. Read on the connection that
  // sync uses, a 4 comes after that answer; one turn of the event loop lets the counter take it in.
  await sharedCount(second.deps.redis, 4);
  await new Promise((r) => setImmediate(r));
  const fifth = await ask(second.app);
  t.equal(fifth.statusCode, 429, 'the fifth request is over the limit on whichever instance it lands');
  t.equal(fifth.headers['ratelimit-remaining'], '0');
});

t.test('with Redis unreachable both limits fall back to counting in the process', async (t) => {
  const appConfig = { ...config, IP_RATE_LIMIT_MAX: 4, RATE_LIMIT_MAX: 3, QUEUE_PREFIX: `rl-down-${runId}` };
  const deps = createApiDeps(appConfig, logger);
  // Nothing listens on port 1: every command fails at once, as with a Redis that is down.
  const deadRedis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  deadRedis.on('error', () => {});
  const app = await buildApp({ config: appConfig, logger, deps: { ...deps, redis: deadRedis } });
  t.teardown(async () => {
    await app.close();
    deadRedis.disconnect();
    await deps.close();
  });
  const { key } = await deps.partners.create(`test-${runId}-redis-down`, 'partner');
  const auth = { authorization: `Bearer ${key}` };

  const perKey = [];
  for (let i = 0; i < 4; i++) perKey.push(await app.inject({ url: '/de/listings/999999999', headers: auth, remoteAddress: '192.0.2.1' }));
  t.same(
    perKey.map((a) => a.statusCode),
    [404, 404, 404, 429],
    'the per-key limit holds',
  );
  t.equal(perKey[3]!.json().type, 'rate_limited');
  t.ok(Number(perKey[3]!.headers['retry-after']) >= 1, 'with Retry-After');

  const perAddress = [];
  for (let i = 0; i < 5; i++) perAddress.push((await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress: '192.0.2.2' })).statusCode);
  t.same(perAddress, [401, 401, 401, 401, 429], 'the per-address limit holds');
});

t.test('after AUTH_FAILURE_LIMIT answers 401 from one address, its requests without a valid key get 429 until the window ends; a valid key is unaffected', async (t) => {
  const windowMs = 3000;
  const { app, partner } = await build(t, { config: { AUTH_FAILURE_LIMIT: 5, RATE_LIMIT_WINDOW_MS: windowMs, QUEUE_PREFIX: `rl-authfail-${runId}` } });
  const valid = await partner();
  const remoteAddress = '203.0.113.50';
  const started = Date.now();
  const failed = [];
  for (let i = 0; i < 5; i++) failed.push((await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress })).statusCode);
  t.same(failed, [401, 401, 401, 401, 401]);
  const refused = [
    await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress }),
    await app.inject({ url: '/de/listings/1', remoteAddress }),
    await app.inject({ url: '/webhooks', headers: randomKey(), remoteAddress }),
  ];
  for (const [i, res] of refused.entries()) {
    t.equal(res.statusCode, 429, `request ${i + 6} without a valid key: 429`);
    t.equal(res.json().type, 'rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    t.ok(retryAfter >= 1 && retryAfter <= windowMs / 1000, `Retry-After ${retryAfter}`);
  }
  t.match(refused[0]!.json().message, /too many failed authentications/);
  t.equal((await app.inject({ url: '/de/listings/999999999', headers: valid.auth, remoteAddress })).statusCode, 404, 'a valid key from the same address is served');
  t.equal((await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress: '203.0.113.51' })).statusCode, 401, 'another address has a count of its own');
  // The count runs per /64 for IPv6: fresh addresses of one network are one address.
  const v6 = [];
  for (let i = 1; i <= 6; i++) v6.push((await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress: `2001:db8:37:9::${i.toString(16)}` })).statusCode);
  t.same(v6, [401, 401, 401, 401, 401, 429], 'addresses of one /64 share a count');
  // The window began when the shared count first saw the address, up to a sync interval after
  // `started`, and later still on a busy machine: its end is awaited, not computed.
  await new Promise((r) => setTimeout(r, Math.max(0, started + windowMs - Date.now())));
  const statusNow = async () => (await app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress })).statusCode;
  t.ok(await eventually(async () => ((await statusNow()) === 401 ? true : undefined), windowMs, 'a 401 once the window is over'), 'once the window is over: 401 again');
});

t.test('two API instances share the count of failed authentications through Redis', async (t) => {
  const shared = { AUTH_FAILURE_LIMIT: 4, RATE_LIMIT_WINDOW_MS: 60_000, QUEUE_PREFIX: `rl-authfail-shared-${runId}` };
  const first = await build(t, { config: shared });
  const second = await build(t, { config: shared });
  const remoteAddress = '198.51.100.77';
  const ask = (app: typeof first.app) => app.inject({ url: '/de/listings/1', headers: randomKey(), remoteAddress });
  const counterKey = authFailureNamespace(shared.QUEUE_PREFIX) + remoteAddress;
  const sharedCount = (redis: Redis, count: number) => eventually(async () => (Number(await redis.get(counterKey)) >= count ? true : undefined), 5000, `the shared count to reach ${count}`);
  for (let i = 0; i < 3; i++) t.equal((await ask(first.app)).statusCode, 401, `failure ${i + 1} on the first instance`);
  await sharedCount(first.deps.redis, 3);
  t.equal((await ask(second.app)).statusCode, 401, 'the fourth, on the second instance, is within the limit');
  await sharedCount(second.deps.redis, 4);
  await new Promise((r) => setImmediate(r)); // the second instance takes in the answer to its sync
  t.equal((await ask(second.app)).statusCode, 429, 'the fifth is refused on the second instance');
  const { auth } = await second.partner();
  t.equal((await second.app.inject({ url: '/de/listings/999999999', headers: auth, remoteAddress })).statusCode, 404, 'a valid key still works there');
});
