// Cursors (src/search/cursor.ts) and the search_after clause (src/search/query/search-after.ts):
// pure functions, no OpenSearch. test/integration/cursor-paging.test.ts pages a real index.
import t from 'tap';
import type { AppError } from '../../src/platform/errors.js';
import { bodyText } from '../../src/search/body-text.js';
import { encodeCursor, queryKey as keyOfText, readCursor } from '../../src/search/cursor.js';
import { withoutItem } from '../../src/search/json-text.js';
import { buildFilteredQuery } from '../../src/search/query/filtered-query.js';
import { openAtClause } from '../../src/search/query/open-at-query.js';
import { continuedAfter } from '../../src/search/query/search-after.js';
import { buildSolrQuery } from '../../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../../src/search/search-params.js';

type Query = Parameters<typeof parseListingSearch>[0];
const solr = (q: Query) => parseListingSearch({ solr: true, ...q }) as Extract<ListingSearch, { kind: 'solr' }>;
const phone = (q: Query) => parseListingSearch({ phone: '+4930123456', ...q }) as Extract<ListingSearch, { kind: 'phone' }>;
/** The key of a body as the search service makes it (no open-hours instant unless given). */
const queryKey = (country: string, body: Record<string, unknown>, open?: string) => keyOfText(country, bodyText(body).query, open);
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The details of the 400 that reading `cursor` answers, or [] when it reads. */
const refusal = (cursor: string, key: string, width: number) => {
  try {
    readCursor(cursor, key, width);
    return [];
  } catch (err) {
    return (err as AppError).type === 'validation' ? (err as AppError).details : [`not a validation error: ${String(err)}`];
  }
};
const NOT_A_CURSOR = ['cursor: is not a cursor of this search; pass the `next` of the previous answer unchanged'];
const OTHER_QUERY = ['cursor: belongs to another query; repeat the query that returned it, changing only cursor and limit'];

t.test('a cursor reads back as the position it was made from, and is URL-safe', async (t) => {
  const key = queryKey('de', buildSolrQuery(solr({ what: 'pizza', lat: 48.1, lon: 11.5 })));
  const position = { after: [12.5, 3.25, 4711], seen: 150 };
  const cursor = encodeCursor(key, position);
  t.match(cursor, /^[A-Za-z0-9_-]+$/, 'base64url: no +, / or =');
  t.same(readCursor(cursor, key, 3), position);
  t.same(readCursor(encodeCursor(key, { after: [], seen: 7 }), key, 0), { after: [], seen: 7 }, 'an ids search carries no sort values');
});

t.test('the query key ignores the page and whatever builds the same body, but not the country or the query', async (t) => {
  const key = queryKey('de', buildSolrQuery(solr({ what: 'pizza' })));
  t.equal(queryKey('de', buildSolrQuery(solr({ what: 'pizza', limit: 10, offset: 40 }))), key, 'limit and offset');
  t.equal(queryKey('de', buildSolrQuery(solr({ what: 'PIZZA' }))), key, 'capitals build the same body');
  t.not(queryKey('at', buildSolrQuery(solr({ what: 'pizza' }))), key, 'another country');
  t.not(queryKey('de', buildSolrQuery(solr({ what: 'pasta' }))), key, 'another word');
  t.not(queryKey('de', buildSolrQuery(solr({ what: 'pizza', lat: 48.1, lon: 11.5 }))), key, 'a centre');
  t.equal(queryKey('de', buildFilteredQuery(phone({ limit: 5 }))), queryKey('de', buildFilteredQuery(phone({ limit: 50 }))));
  t.not(queryKey('de', buildFilteredQuery(phone({}))), queryKey('de', buildFilteredQuery(phone({ phone: '+4930123457' }))));
  t.not(queryKey('de', buildFilteredQuery(phone({})), 'now'), queryKey('de', buildFilteredQuery(phone({}))), 'open_now');
  t.not(queryKey('de', buildFilteredQuery(phone({})), 'now'), queryKey('de', buildFilteredQuery(phone({})), '2026-12-24T17:30:00.000Z'), 'another open_at instant');
});

t.test('an open-hours search names the same query as the search without its filter: the clause cut from the text is the body built without it', async (t) => {
  const instant = new Date('2026-12-24T17:30:00Z');
  const clauses = { 'zones in use': openAtClause(instant, ['Europe/Berlin', 'Europe/Vienna']), 'no zone in use': openAtClause(instant, []) };
  const builds = {
    phone: (extra: Record<string, unknown>[]) => buildFilteredQuery(phone({}), extra),
    ids: (extra: Record<string, unknown>[]) => buildFilteredQuery(parseListingSearch({ ids: '3,1' }) as Extract<ListingSearch, { kind: 'ids' }>, extra),
    'solr what': (extra: Record<string, unknown>[]) => buildSolrQuery(solr({ what: 'Bäckerei Müller', where: 'Köln' }), extra),
    'solr category near': (extra: Record<string, unknown>[]) => buildSolrQuery(solr({ category: 'Café', lat: 48.1, lon: 11.5 }), extra),
  };
  for (const [build, make] of Object.entries(builds)) {
    for (const [zones, clause] of Object.entries(clauses)) {
      t.equal(withoutItem(bodyText(make([clause])).query, clause), bodyText(make([])).query, `${build}, ${zones}`);
    }
  }
  t.throws(() => withoutItem('{"filter":[{"term":{"a":1}}]}', { term: { a: 1 } }), 'the first element of its array has no comma before it: refused, not cut wrongly');
});

t.test('keys are those the cursors partners already hold were made with: the hash of the body without its page, plus `open`', async (t) => {
  const { createHash } = await import('node:crypto');
  const body = buildSolrQuery(solr({ what: 'pizza', limit: 10, offset: 40 }));
  const { from: _from, size: _size, ...rest } = body;
  const before = (open: string | null) =>
    createHash('sha256')
      .update(`de\n${JSON.stringify({ ...rest, open })}`)
      .digest('base64url')
      .slice(0, 22);
  t.equal(queryKey('de', body), before(null));
  t.equal(queryKey('de', body, 'now'), before('now'));
  t.equal(keyOfText('de', '{}', undefined), createHash('sha256').update('de\n{"open":null}').digest('base64url').slice(0, 22), 'an empty query');
});

t.test('a body is written once: its text is what JSON.stringify writes, page first, and its query is the rest', async (t) => {
  const body = buildSolrQuery(solr({ what: 'pizza', limit: 10, offset: 40 }));
  const { text, query } = bodyText(body);
  t.same(JSON.parse(text), body, 'the whole body');
  const { from: _from, size: _size, ...rest } = body;
  t.equal(query, JSON.stringify(rest), 'the query without its page');
  t.same(bodyText({ size: 5 }), { text: '{"size":5}', query: '{}' }, 'a page alone');
  t.same(bodyText({ query: { match_all: {} } }), { text: '{"query":{"match_all":{}}}', query: '{"query":{"match_all":{}}}' }, 'no page');
});

t.test('a cursor of another query, country or sort is refused as such', async (t) => {
  const key = queryKey('de', buildFilteredQuery(phone({})));
  const cursor = encodeCursor(key, { after: [10], seen: 50 });
  t.same(refusal(cursor, queryKey('de', buildFilteredQuery(phone({ phone: '+4930123457' }))), 1), OTHER_QUERY);
  t.same(refusal(cursor, queryKey('at', buildFilteredQuery(phone({}))), 1), OTHER_QUERY);
  t.same(refusal(cursor, queryKey('de', buildSolrQuery(solr({ what: 'pizza' }))), 2), OTHER_QUERY, 'a query of the other mode, whose hits carry two sort values');
});

t.test('garbage, tampered and malformed cursors are 400, never an OpenSearch error', async (t) => {
  const key = queryKey('de', buildFilteredQuery(phone({})));
  const cases: [string, string][] = [
    ['empty', ''],
    ['not base64url JSON', 'garbage!'],
    ['JSON, not an object', raw(42)],
    ['null', raw(null)],
    ['another version', raw({ v: 2, q: key, a: [10], n: 50 })],
    ['no sort values', raw({ v: 1, q: key, n: 50 })],
    ['too many sort values', raw({ v: 1, q: key, a: [1.5, 10], n: 50 })],
    ['an id that is no integer', raw({ v: 1, q: key, a: [10.5], n: 50 })],
    ['a negative id', raw({ v: 1, q: key, a: [-1], n: 50 })],
    ['an id as a string', raw({ v: 1, q: key, a: ['10'], n: 50 })],
    ['a negative count', raw({ v: 1, q: key, a: [10], n: -1 })],
    ['no query', raw({ v: 1, a: [10], n: 50 })],
  ];
  for (const [name, cursor] of cases) t.same(refusal(cursor, key, 1), NOT_A_CURSOR, name);
  const solrKey = queryKey('de', buildSolrQuery(solr({ what: 'pizza' })));
  t.same(refusal(raw({ v: 1, q: solrKey, a: ['x', 10], n: 50 }), solrKey, 2), NOT_A_CURSOR, 'a score that is no number');
  t.same(refusal(raw({ v: 1, q: solrKey, a: [12.75, 10], n: 50 }), solrKey, 2), [], 'a fractional score is fine');
});

t.test("a cursor page is the first page's body without from, with search_after", async (t) => {
  const first = buildFilteredQuery(phone({ limit: 10 }));
  const { from: _from, ...rest } = first;
  t.same(continuedAfter(first, [4711]), { ...rest, search_after: [4711] });
  const solrFirst = buildSolrQuery(solr({ what: 'pizza', lat: 48.1, lon: 11.5 }));
  const continued = continuedAfter(solrFirst, [9.5, 1.25, 4711]);
  t.notOk('from' in continued);
  t.same(continued.sort, solrFirst.sort, 'the same sort, ending with the listing id');
  t.same([continued.query, continued.size, continued.search_after], [solrFirst.query, solrFirst.size, [9.5, 1.25, 4711]]);
});

t.test('cursor with offset is refused; a cursor alone passes to the service', async (t) => {
  const details = (q: Query) => {
    try {
      parseListingSearch(q);
      return [];
    } catch (err) {
      return (err as AppError).details;
    }
  };
  t.same(details({ phone: '+4930123456', cursor: 'abc', offset: 0 }), ['cursor: cannot be combined with offset']);
  t.same(details({ solr: true, what: 'pizza', cursor: 'abc', offset: 50 }), ['cursor: cannot be combined with offset']);
  t.same(details({ cursor: 'abc', offset: 50 }), ['cursor: cannot be combined with offset', 'query: give one filter: ids, phone, or street + place + postCode'], 'reported with the other checks');
  t.match(parseListingSearch({ phone: '+4930123456', cursor: 'abc', limit: 10 }), { kind: 'phone', cursor: 'abc', limit: 10, offset: 0 });
});
