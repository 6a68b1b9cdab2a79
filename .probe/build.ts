import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { buildFilteredQuery } from '../src/search/query/filtered-query.js';
import { parseListingSearch } from '../src/search/search-params.js';
import { bodyText } from '../src/search/body-text.js';
import { queryKey } from '../src/search/cursor.js';
const cases: Record<string, Record<string, unknown>> = {
  phone: { phone: '+4930123456' },
  typoWhat: { solr: true, what: 'Chiensisches' },
  firstLetter: { solr: true, what: 'Rauchpointner Qlumenhändler' },
  whatWhereTypo: { solr: true, what: 'Rauchpointner Qlumenhändler', where: 'Lukcau' },
  whatWhere: { solr: true, what: 'Restaurant', where: 'Luckau' },
  whatLatLon: { solr: true, what: 'Restaurant', lat: 52.5, lon: 13.4 },
};
for (const [name, q] of Object.entries(cases)) {
  const run = () => { const p = parseListingSearch(q as never); const b = p.kind === 'solr' ? buildSolrQuery(p, []) : buildFilteredQuery(p as never, []); const t = bodyText(b as never); return queryKey('de', t.query, undefined as never); };
  for (let i = 0; i < 5000; i++) run();
  const n = 20000; const t0 = process.hrtime.bigint(); for (let i = 0; i < n; i++) run();
  const p = parseListingSearch(q as never); const b = p.kind === 'solr' ? buildSolrQuery(p, []) : buildFilteredQuery(p as never, []);
  console.log(name.padEnd(15), (Number(process.hrtime.bigint() - t0) / n / 1000).toFixed(1), 'us; body bytes', JSON.stringify(b).length);
}
