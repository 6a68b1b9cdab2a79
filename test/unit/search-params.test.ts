import t from 'tap';
import type { AppError } from '../../src/platform/errors.js';
import { parseListingSearch } from '../../src/search/search-params.js';
import { parseSolrText } from '../../src/search/query/solr-text.js';
import { parseMatchValue } from '../../src/search/query/wildcard.js';

const details = (q: Parameters<typeof parseListingSearch>[0]) => {
  try {
    parseListingSearch(q);
    return [];
  } catch (err) {
    return (err as AppError).details;
  }
};

t.test('exactly one filter family', async (t) => {
  t.match(parseListingSearch({ ids: '1, 2' }), { kind: 'ids', ids: [1, 2], limit: 50, offset: 0 });
  t.match(parseListingSearch({ phone: '+4930123' }), { kind: 'phone', phone: '+4930123' });
  t.match(parseListingSearch({ street: 'A', place: 'B', postCode: '1' }), { kind: 'address' });
  t.same(details({}), ['query: give one filter: ids, phone, or street + place + postCode']);
  t.same(details({ ids: '1', phone: '+4930123' }), ['query: filters ids and phone cannot be combined']);
  t.same(details({ street: 'A', number: '1' }), ['place: is required for an address search', 'postCode: is required for an address search']);
  t.same(details({ ids: '1', what: 'x' }), ['what: only with solr=true']);
});

t.test('ids: at most 50, decimal, duplicates removed', async (t) => {
  t.same(details({ ids: Array.from({ length: 51 }, (_, i) => i + 1).join(',') }), ['ids: at most 50 ids']);
  t.same(details({ ids: '1,x' }), ['ids: must be comma-separated listing ids']);
  t.match(parseListingSearch({ ids: '5,5,3' }), { ids: [5, 3] });
});

t.test('Solr mode needs something to search for; lat and lon go together', async (t) => {
  t.same(details({ solr: true }), ['solr: give at least one of what, where, category, lat and lon, or bbox']);
  t.same(details({ solr: true, lat: 1 }), ['lat, lon: give both or neither']);
  t.same(details({ solr: true, what: '  ' }), ['what: must not be empty']);
  t.match(parseListingSearch({ solr: true, lat: 0, lon: 0 }), { kind: 'solr', centre: { lat: 0, lon: 0 } });
});

t.test('wildcard values are folded, escaped and bounded', async (t) => {
  t.same(parseMatchValue('Hauptstraße'), { term: 'hauptstrasse' });
  t.same(parseMatchValue('*Straße**12'), { wildcard: '*strasse*12' });
  t.same(parseMatchValue('a?b\\c*'), { wildcard: 'a\\?b\\\\c*' });
  t.same(parseMatchValue('*a*b*c*d*e*f'), { error: 'may hold at most 5 wildcards (*)' });
  t.same(parseMatchValue('x'.repeat(101)), { error: 'must be at most 100 characters' });
});

t.test('Solr text: quoted phrases and free terms', async (t) => {
  t.same(parseSolrText('Bäckerei "Am Markt" Köln'), { phrases: ['Am Markt'], terms: ['Bäckerei', 'Köln'] });
  t.same(parseSolrText('unpaired "quote'), { phrases: [], terms: ['unpaired', 'quote'] });
  t.same(parseSolrText('""'), { phrases: [], terms: [] });
});

t.test('open_now and open_at: one or neither, an offset required, within 366 days of now', async (t) => {
  const now = new Date('2026-11-23T12:00:00Z');
  const detailsAt = (q: Parameters<typeof parseListingSearch>[0]) => {
    try {
      parseListingSearch(q, now);
      return [];
    } catch (err) {
      return (err as AppError).details;
    }
  };
  t.same(parseListingSearch({ phone: '+4930123', open_now: true }, now).openAt, now);
  t.notOk('openAt' in parseListingSearch({ phone: '+4930123', open_now: false }, now), 'open_now=false filters nothing');
  t.same(parseListingSearch({ solr: true, what: 'pizza', open_at: '2026-12-24T18:30:00+01:00' }, now).openAt, new Date('2026-12-24T17:30:00Z'));
  t.same(parseListingSearch({ phone: '+4930123', open_at: '2026-12-24T18:30:00 01:00' }, now).openAt, new Date('2026-12-24T17:30:00Z'), 'a + decoded as a space');
  t.same(parseListingSearch({ phone: '+4930123', open_at: '2025-11-22T12:00:00Z' }, now).openAt, new Date('2025-11-22T12:00:00Z'), '366 days back');
  t.same(detailsAt({ phone: '+4930123', open_now: true, open_at: '2026-12-24T18:30:00Z' }), ['open_now, open_at: give one or neither']);
  t.same(detailsAt({ phone: '+4930123', open_at: '2026-12-24T18:30:00' }), ['open_at: must be an ISO 8601 date and time with an offset, e.g. 2026-12-24T18:30:00+01:00']);
  t.same(detailsAt({ phone: '+4930123', open_at: '2026-02-30T18:30:00Z' }), ['open_at: must be an ISO 8601 date and time with an offset, e.g. 2026-12-24T18:30:00+01:00']);
  const instantOf = (open_at: string) => parseListingSearch({ phone: '+4930123', open_at }, now).openAt;
  t.same(instantOf('2026-12-24T18:30+0100'), new Date('2026-12-24T17:30:00Z'), 'no seconds, no colon in the offset');
  t.same(instantOf('2026-12-24t18:30:00.123456789-05:30'), new Date('2026-12-25T00:00:00.123Z'), 'lower case, nine fraction digits, a negative half-hour offset');
  t.same(instantOf('2026-11-23T13:00:00+01:00'), now, 'the same instant as now, in another offset');
  for (const impossible of ['2026-02-29T12:00:00Z', '2026-04-31T12:00:00Z', '2026-12-24T18:60:00Z', '2026-12-24T25:00:00Z', '2026-13-01T12:00:00Z']) {
    t.same(detailsAt({ phone: '+4930123', open_at: impossible }), ['open_at: must be an ISO 8601 date and time with an offset, e.g. 2026-12-24T18:30:00+01:00'], impossible);
  }
  t.same(detailsAt({ phone: '+4930123', open_at: '2027-11-25T12:00:00Z' }), ['open_at: must be within 366 days of now']);
  t.same(detailsAt({ phone: '+4930123', open_at: '2025-11-21T12:00:00Z' }), ['open_at: must be within 366 days of now']);
  t.same(detailsAt({ open_now: true }), ['query: give one filter: ids, phone, or street + place + postCode'], 'open_now is no filter family of its own');
});
