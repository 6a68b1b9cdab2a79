import t from 'tap';
import { indexLayout, loadConfig } from '../../src/platform/config.js';
import { openSearchNodes } from '../../src/opensearch/client.js';

t.test('defaults apply and numbers are converted', async (t) => {
  const config = loadConfig({ PORT: '4000' });
  t.equal(config.PORT, 4000);
  t.equal(config.REDIS_URL, 'redis://127.0.0.1:6379');
  t.same(config.countries, ['de', 'at', 'ch']);
});

t.test('COUNTRIES is normalised to lower case', async (t) => {
  t.same(loadConfig({ COUNTRIES: 'DE,Fr' }).countries, ['de', 'fr']);
});

t.test("every enabled country needs a default time zone for its listings' hours", async (t) => {
  t.throws(() => loadConfig({ COUNTRIES: 'de,zz' }), /COUNTRIES: no default time zone for zz/);
  t.equal(loadConfig({ OPEN_ZONES_TTL_MS: '0' }).OPEN_ZONES_TTL_MS, 0);
});

t.test("the relay's recent window must reach past its grace by more than a pass interval", async (t) => {
  t.throws(() => loadConfig({ RELAY_RECENT_MS: '10500' }), /RELAY_RECENT_MS=10500: must exceed RELAY_GRACE_MS \+ RELAY_INTERVAL_MS \(11000\)/);
  t.equal(loadConfig({ RELAY_RECENT_MS: '11001' }).RELAY_RECENT_MS, 11001);
});

t.test('a bad value names the variable', async (t) => {
  t.throws(() => loadConfig({ PORT: 'eighty' }), { name: 'ConfigError' });
  t.throws(() => loadConfig({ PORT: 'eighty' }), /PORT="eighty"/);
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  t.throws(() => loadConfig({ COUNTRIES: 'germany' }), /COUNTRIES/);
});

t.test('an invalid value is shown without the credentials it carries, naming the setting and the rule', async (t) => {
  const messageOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      return (err as Error).message;
    }
    return t.fail('the configuration was accepted') as never;
  };
  const url = messageOf({ DATABASE_URL: 'mysql://admin:hunter2@db.internal/listings?sslpassword=swordfish' });
  t.match(url, /DATABASE_URL="mysql:\/\/admin:\*\*\*@db\.internal\/listings\?sslpassword=\*\*\*": .*\^postgres/);
  t.notMatch(url, /hunter2|swordfish/);
  const noScheme = messageOf({ REDIS_URL: 'redis//default:hunter2@cache:6379' });
  t.match(noScheme, /REDIS_URL=.*:\*\*\*@cache/);
  t.notMatch(noScheme, /hunter2/);
  const both = messageOf({ OPENSEARCH_URL: 'ftp://u:hunter2@search', PORT: 'eighty' });
  t.match(both, /OPENSEARCH_URL=.*\n.*PORT="eighty"|PORT="eighty".*\n.*OPENSEARCH_URL=/);
  t.notMatch(both, /hunter2/);
});

t.test('OPENSEARCH_URL names one node or several nodes of one cluster, comma-separated', async (t) => {
  t.same(openSearchNodes(loadConfig({}).OPENSEARCH_URL), ['http://127.0.0.1:9200']);
  const list = 'http://127.0.0.1:9200,http://127.0.0.1:9201,https://search-3.internal:9200';
  t.same(openSearchNodes(loadConfig({ OPENSEARCH_URL: list }).OPENSEARCH_URL), list.split(','));
  for (const bad of ['http://a:9200, http://b:9200', 'http://a:9200,', 'http://a:9200,,http://b:9200', 'http://a:9200,b:9200']) {
    t.throws(() => loadConfig({ OPENSEARCH_URL: bad }), /OPENSEARCH_URL/, bad);
  }
  // Without ports the first URL's host would swallow the rest (`a,ftp`), were the list parsed whole.
  for (const secret of ['http://u:hunter2@a:9200,ftp://u:hunter2@b:9200', 'http://u:hunter2@a,ftp://u:hunter2@b']) {
    let message = '';
    try {
      loadConfig({ OPENSEARCH_URL: secret });
    } catch (err) {
      message = (err as Error).message;
    }
    t.match(message, /OPENSEARCH_URL=".*u:\*\*\*@a.*u:\*\*\*@b/, `a refused list is named: ${secret.replaceAll('hunter2', '…')}`);
    t.notMatch(message, /hunter2/, 'and shown without any of its passwords');
  }
});

t.test('shards and replicas default to one node: one shard, no copies', async (t) => {
  t.same(indexLayout(loadConfig({})), { shards: 1, replicas: 0 });
  t.same(indexLayout(loadConfig({ OPENSEARCH_SHARDS: '2', OPENSEARCH_REPLICAS: '1' })), { shards: 2, replicas: 1 });
  t.throws(() => loadConfig({ OPENSEARCH_SHARDS: '0' }), /OPENSEARCH_SHARDS/);
  t.throws(() => loadConfig({ OPENSEARCH_REPLICAS: '-1' }), /OPENSEARCH_REPLICAS/);
});

t.test('production refuses to start without WEBHOOK_SECRET_KEY; a key is 64 hex digits and is never shown', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /WEBHOOK_SECRET_KEY: required when NODE_ENV=production/);
  t.equal(loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'a'.repeat(64) }).WEBHOOK_SECRET_KEY, 'a'.repeat(64));
  t.equal(loadConfig({}).WEBHOOK_SECRET_KEY, '', 'development runs with the development key');
  t.throws(() => loadConfig({ WEBHOOK_SECRET_KEY: 'short-and-secret' }), /WEBHOOK_SECRET_KEY=\[redacted\]/);
});
