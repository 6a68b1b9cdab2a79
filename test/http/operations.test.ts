import t, { type Test } from 'tap';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { pino } from 'pino';
import { buildApp } from '../../src/http/app.js';
import { createApiDeps } from '../../src/http/deps.js';
import { REDACTED_PATHS } from '../../src/platform/logger.js';
import { createMetrics } from '../../src/platform/metrics.js';
import { createOpsServer, listenOps } from '../../src/platform/ops-server.js';
import { createIndexQueue, type IndexQueue } from '../../src/outbox/queue.js';
import { build, config, listingInput } from '../helper.js';

const { app, deps, partner } = await build(t);

/** Counts the queries sent to PostgreSQL through `pool` from now on. */
function countQueries(pool: { query: (...args: never[]) => unknown }) {
  const query = pool.query;
  let count = 0;
  pool.query = function (this: unknown, ...args: never[]) {
    count++;
    return query.apply(this, args);
  };
  return () => count;
}

/** Every method + path the app serves, rebuilt from Fastify's route tree (one segment a line). */
function registeredRoutes(): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)── (\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = Math.floor(match[1]!.length / 4); // "├" at depth 0, "│   ├" at depth 1, ...
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('');
    if (path.startsWith('/docs') || path === '/openapi.json') continue;
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return [...new Set(routes)].sort();
}

t.test('the OpenAPI 3.1 document is valid and lists every route with summary, tags and responses', async (t) => {
  const res = await app.inject({ url: '/openapi.json' });
  t.equal(res.statusCode, 200);
  const doc = res.json();
  t.equal(doc.openapi, '3.1.0');
  await SwaggerParser.validate(structuredClone(doc));
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== 'parameters')
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
  const served = registeredRoutes();
  t.ok(served.length >= 30, `${served.length} routes`);
  t.same(
    served.filter((r) => !documented.includes(r)),
    [],
    'every served route is documented',
  );
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { summary?: string; tags?: string[]; responses?: Record<string, unknown> }>>)) {
    for (const [method, op] of Object.entries(ops)) {
      t.ok(op.summary, `${method} ${path}: summary`);
      t.ok(op.tags?.length, `${method} ${path}: tags`);
      t.ok(
        Object.keys(op.responses ?? {}).some((s) => s.startsWith('2')),
        `${method} ${path}: a success response`,
      );
      if (path.startsWith('/{country}')) t.ok(op.responses?.['401'] && op.responses?.['400'], `${method} ${path}: error responses`);
    }
  }
  t.match(doc.paths['/{country}/listings'].get.description, /experimental/i, 'the Solr mode is marked experimental');
  t.ok(doc.components.schemas.Listing && doc.components.schemas.Error, 'shared schemas under their names');
  t.same(doc.paths['/healthz'].get.security, [], 'public routes need no key');
});

t.test('security headers (helmet) on every answer', async (t) => {
  const res = await app.inject({ url: '/healthz' });
  t.equal(res.headers['x-content-type-options'], 'nosniff');
  t.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
  t.match(res.headers['strict-transport-security'], /max-age=/);
  t.match(res.headers['content-security-policy'], /default-src 'self'/);
  const docs = await app.inject({ url: '/docs/' });
  t.match(docs.headers['content-security-policy'], /validator\.swagger\.io/, 'Swagger UI answers with its own policy');
});

t.test('Swagger UI is served at /docs', async (t) => {
  const res = await app.inject({ url: '/docs/' });
  t.equal(res.statusCode, 200);
  t.match(res.body, /swagger/i);
});

/** The API's operations listener as src/server.ts starts it with METRICS_PORT, on a free port. */
async function opsListener(t: Test, token = '') {
  const ops = createOpsServer({ registry: deps.metrics.registry, token, readiness: deps.readiness });
  await listenOps(ops, 0, '127.0.0.1');
  t.teardown(() => new Promise<void>((resolve) => ops.close(() => resolve())));
  return `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
}

t.test('the public port serves no /metrics: they are on the operations port, METRICS_PORT', async (t) => {
  const res = await app.inject({ url: '/metrics' });
  t.equal(res.statusCode, 404);
  t.equal(res.json().type, 'not_found');
});

t.test('/metrics on the operations port exposes request durations by route and status, the outbox backlog and queue counts', async (t) => {
  const { auth } = await partner();
  await app.inject({ url: '/de/listings/999999999', headers: auth });
  const base = await opsListener(t);
  const res = await fetch(`${base}/metrics`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/plain/);
  const body = await res.text();
  t.match(body, /http_request_duration_seconds_count\{method="GET",route="\/:country\/listings\/:id",status_code="404"\} \d+/);
  t.match(body, /^outbox_backlog \d+$/m);
  t.match(body, /^index_queue_jobs\{state="waiting"\} \d+$/m);
  t.match(body, /process_resident_memory_bytes/);
  t.same(await (await fetch(`${base}/healthz`)).json(), { status: 'ok' });
  t.same(await (await fetch(`${base}/readyz`)).json(), { status: 'ready' });
  t.equal((await fetch(`${base}/nope`)).status, 404);
});

t.test('with METRICS_TOKEN, /metrics answers 401 without that bearer token and 200 with it', async (t) => {
  const token = `metrics-${Math.random().toString(36).slice(2)}`;
  const base = await opsListener(t, token);
  for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token]) {
    const res = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
    t.equal(res.status, 401, String(authorization));
    t.match(await res.json(), { type: 'unauthorized' });
  }
  const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(ok.status, 200);
  t.match(await ok.text(), /^outbox_backlog \d+$/m);
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'probes need no token');
});

t.test('a burst of scrapes reads the outbox backlog from PostgreSQL and the queue counts from Redis once', async (t) => {
  let redisReads = 0;
  const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  t.teardown(() => queue.close());
  const getJobCounts = queue.queue.getJobCounts.bind(queue.queue);
  const counted = {
    queue: {
      getJobCounts: (...states: Parameters<typeof getJobCounts>) => {
        redisReads++;
        return getJobCounts(...states);
      },
    },
  };
  const queries = countQueries(deps.database.pool);
  const metrics = createMetrics({ db: deps.database.db, queue: counted as unknown as Pick<IndexQueue, 'queue'>, cacheMs: 60_000 });
  const texts = await Promise.all(Array.from({ length: 20 }, () => metrics.registry.metrics()));
  t.ok(
    texts.every((text) => /^outbox_backlog \d+$/m.test(text) && /^index_queue_jobs\{state="waiting"\} \d+$/m.test(text)),
    'every scrape has both gauges',
  );
  for (let i = 0; i < 5; i++) await metrics.registry.metrics();
  t.equal(queries(), 1, 'one query of the outbox for 25 scrapes');
  t.equal(redisReads, 1, 'one read of the queue counts');
});

t.test('logs carry the request id and never the API key or image payloads', async (t) => {
  let logged = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged += chunk.toString();
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  const deps = createApiDeps(config, logger);
  // Every successful request logged, as the image upload below must be.
  const logged_app = await buildApp({ config: { ...config, LOG_SUCCESS_SAMPLE_RATE: 1 }, logger, deps });
  t.teardown(async () => {
    await logged_app.close();
    await deps.close();
  });
  const { auth } = await partner();
  const { id } = (await logged_app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json();
  const base64 = readFileSync(new URL('../fixtures/images/tiny.jpg', import.meta.url)).toString('base64');
  await logged_app.inject({ method: 'POST', url: `/de/listings/${id}/images`, headers: { ...auth, 'x-request-id': 'trace-me-42' }, payload: { type: 'logo', caption: '', base64 } });
  await logged_app.inject({ url: '/de/listings/1', headers: { authorization: 'Bearer lk_notAValidKeyButSecretLooking0000000000' } });
  t.match(logged, /"reqId":"trace-me-42"/);
  t.notMatch(logged, auth.authorization.slice(7), 'the key is never logged');
  t.notMatch(logged, 'lk_notAValidKeyButSecretLooking', 'not even a wrong key');
  t.notMatch(logged, base64.slice(0, 40), 'no image payloads');
  t.ok(logged.length > 0);
});
