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

t.test('a bad value names the variable', async (t) => {
  t.throws(() => loadConfig({ PORT: 'eighty' }), { name: 'ConfigError' });
  t.throws(() => loadConfig({ PORT: 'eighty' }), /PORT="eighty"/);
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  t.throws(() => loadConfig({ COUNTRIES: 'germany' }), /COUNTRIES/);
});
