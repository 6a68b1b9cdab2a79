// GET /:country/suggest: what has been typed, split into the words before the last (required as
// `what` requires them) and the last word, a prefix.
import t from 'tap';
import type { AppError } from '../../src/platform/errors.js';
import { parseSuggest } from '../../src/search/suggest-params.js';

const details = (q: Parameters<typeof parseSuggest>[0]) => {
  try {
    parseSuggest(q);
    return [];
  } catch (err) {
    return (err as AppError).details;
  }
};

t.test('the last word is the prefix, the words before it are required with their spellings', async (t) => {
  t.same(parseSuggest({ q: 'Bäckerei Mül' }), { before: [['backerei', 'baeckerei']], last: ['mul', 'muel'], limit: 5 });
  t.same(parseSuggest({ q: 'K' }), { before: [], last: ['k'], limit: 5 });
  t.same(parseSuggest({ q: 'Müller GmbH & Co. K', limit: 10 }).before, [['muller', 'mueller']], 'legal forms are not required');
  t.same(parseSuggest({ q: 'Café ', lat: 1, lon: 2 }), { before: [], last: ['cafe'], centre: { lat: 1, lon: 2 }, limit: 5 }, 'a trailing space changes nothing');
});

t.test('a q without a letter or digit, or half a centre, is a 400', async (t) => {
  t.same(details({ q: ' & - ' }), ['q: must contain a letter or digit']);
  t.same(details({ q: 'x', lat: 1 }), ['lat, lon: give both or neither']);
});
