// The typo bounds (src/search/query/defaults.ts `typos`, docs/search.md "Bounds") through the API
// and the real indexer: the most expensive `what`/`where` and match request allowed are answered,
// and the query bodies built for them stay bounded; a listing at the document bound is indexed and
// still found, with typos where its words allow them.
import t from 'tap';
import { countTerms, longWord, MAX_SOLR_BODY_BYTES, MAX_SOLR_TERMS, WORST_TEXTS } from '../../bench/worst-queries.js';
import { buildMatchQuery } from '../../src/match/match-query.js';
import { parseMatchRequest } from '../../src/match/match-params.js';
import { SEARCH_DEFAULTS } from '../../src/search/query/defaults.js';
import { buildSolrQuery } from '../../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../../src/search/search-params.js';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();

/** A query body may not pass this many bytes (one 200-letter word made 4 MB before the bounds). */
const MAX_BODY_BYTES = MAX_SOLR_BODY_BYTES;

t.test('the worst what and where allowed answer 200, and the body the API builds for them is bounded', async (t) => {
  for (const [name, text] of Object.entries(WORST_TEXTS)) {
    const query = { solr: true, what: text, where: text };
    const res = await app.inject({ url: `/de/listings?${new URLSearchParams({ solr: 'true', what: text, where: text })}`, headers: owner.auth });
    t.equal(res.statusCode, 200, `${name}: ${res.statusCode === 200 ? '' : res.body.slice(0, 300)}`);
    const body = buildSolrQuery(parseListingSearch(query) as Extract<ListingSearch, { kind: 'solr' }>);
    t.ok(countTerms(body) <= MAX_SOLR_TERMS, `${name}: ${countTerms(body)} terms`);
    t.ok(JSON.stringify(body).length <= MAX_BODY_BYTES, `${name}: ${JSON.stringify(body).length} bytes`);
  }
});

t.test('the worst match request allowed answers 200 with a bounded candidate search', async (t) => {
  for (const [name, text] of Object.entries(WORST_TEXTS)) {
    const request = { name: text, place: text.slice(0, 100), zip: '10115' };
    const res = await app.inject({ method: 'POST', url: '/de/listings/match', headers: owner.auth, payload: request });
    t.equal(res.statusCode, 200, `${name}: ${res.statusCode === 200 ? '' : res.body.slice(0, 300)}`);
    const body = buildMatchQuery(parseMatchRequest(request, 'de').search);
    t.ok(countTerms(body) <= MAX_SOLR_TERMS && JSON.stringify(body).length <= MAX_BODY_BYTES, `${name}: ${countTerms(body)} terms, ${JSON.stringify(body).length} bytes`);
  }
});

t.test('a listing with the longest typo words and fifty long keywords is indexed, found with two typos, and its keywords exactly', async (t) => {
  const word = longWord(SEARCH_DEFAULTS.typos.maxTwoEdits, 3).replace('ü', 'b');
  const keywords = Array.from({ length: 50 }, (_, i) => `${longWord(30, i)} ${longWord(30, i + 50)} ${longWord(30, i + 100)}`.slice(0, 100));
  const lastKeyword = `${keywords[49]!.split(' ')[0]}`;
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ name: `${word} ${runId}`, keywords }) });
  t.equal(created.statusCode, 201, created.body.slice(0, 300));
  const id = Number(created.json().id);
  const replaced = (w: string, i: number) => `${w.slice(0, i)}${w[i] === 'x' ? 'y' : 'x'}${w.slice(i + 1)}`;
  const typed = replaced(replaced(word, 10), 30); // two letters replaced: two edits
  const found = (what: string) => async () => {
    const res = await app.inject({ url: `/de/listings?${new URLSearchParams({ solr: 'true', what })}`, headers: owner.auth });
    return (res.json() as { listings: { lid: number }[] }).listings.some((l) => l.lid === id) ? true : undefined;
  };
  await eventually(found(`${word} ${runId}`), INDEXED_WITHIN_MS, 'the listing by its name');
  t.ok(await found(`${typed} ${runId}`)(), 'the longest word with typos still finds it');
  t.ok(await found(lastKeyword)(), 'the last keyword, past the document budget, is found exactly');
});
