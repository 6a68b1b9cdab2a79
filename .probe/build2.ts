import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { parseListingSearch } from '../src/search/search-params.js';
import { bodyText } from '../src/search/body-text.js';
import { queryKey } from '../src/search/cursor.js';
import { queryForms } from '../src/search/typo-variants.js';
const q = { solr: true, what: 'Rauchpointner Qlumenhändler', where: 'Lukcau' };
function time(name: string, fn: () => unknown) { for (let i = 0; i < 5000; i++) fn(); const n = 20000; const t0 = process.hrtime.bigint(); for (let i = 0; i < n; i++) fn(); console.log(name.padEnd(20), (Number(process.hrtime.bigint() - t0) / n / 1000).toFixed(1), 'us'); }
const p = parseListingSearch(q as never) as never;
const b = buildSolrQuery(p, []);
const t = bodyText(b as never);
time('parse', () => parseListingSearch(q as never));
time('queryForms x3', () => [queryForms('rauchpointner'), queryForms('qlumenhandler'), queryForms('lukcau')]);
time('build', () => buildSolrQuery(p, []));
time('bodyText', () => bodyText(b as never));
time('stringify', () => JSON.stringify(b));
time('queryKey', () => queryKey('de', t.query, undefined as never));
console.log(JSON.stringify(b).slice(0, 3000));
