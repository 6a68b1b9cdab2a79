import t from 'tap';
import { loadConfig } from '../../src/config.js';

t.test('defaults apply and numbers are converted', async (t) => {
  const config = loadConfig({ PORT: '4000' });
  t.equal(config.PORT, 4000);
  t.equal(config.REDIS_URL, 'redis://127.0.0.1:6379');
  t.same(config.countries, ['de', 'at', 'ch']);
});

t.test('COUNTRIES is normalised to lower case', async (t) => {
  t.same(loadConfig({ COUNTRIES: 'DE,Fr' }).countries, ['de', 'fr']);
});

t.test('every enabled country needs a default time zone for its listings\' hours', async (t) => {
  t.throws(() => loadConfig({ COUNTRIES: 'de,zz' }), /COUNTRIES: no default time zone for zz/);
  t.equal(loadConfig({ OPEN_ZONES_TTL_MS: '0' }).OPEN_ZONES_TTL_MS, 0);
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
