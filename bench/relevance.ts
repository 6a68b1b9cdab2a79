// Relevance benchmark of the Solr-mode search: a labelled query set generated from the data set
// itself (bench/relevance-queries.ts), run through the real API; recall@1, @10, @50 and MRR per
// class, plus the nearer-first check of same-named listings. With --designs it also runs the
// same queries raw against OpenSearch for every query design of bench/search-designs.ts and
// measures OpenSearch's CPU per query and the one-connection latency of each.
// The second-round classes (one search box, category names, compounds, type-ahead; bench/
// second-round-queries.ts) run on a corpus of their own, written into the same data set, and are
// reported beside the first ones with what the new index fields and queries cost.
//   npm run bench:relevance -- --smoke        5 000 listings (a check that it runs)
//   npm run bench:relevance -- --quick        50 000 listings
//   npm run bench:relevance -- --path         200 000 listings (the data set of bench:path)
//   npm run bench:relevance                   1 000 000 listings
//   options: --per-class N (default 300)  --seed S (default 7)  --designs  --misses FILE
//            --no-cost (skip the cost measurements)  --size-sample N (listings of the index-size measurement, default 20 000)
import { writeFileSync } from 'node:fs';
import { cpuSeconds } from './proc.js';
import { buildQuerySet, QUERY_CLASSES, random, score, type CorpusListing, type LabelledQuery } from './relevance-queries.js';
import { SEARCH_DESIGNS } from './search-designs.js';
import { buildCorpus, GROUP_SIZES } from './second-round-corpus.js';
import { buildSecondRoundQueries, isRight, SECOND_ROUND_CLASSES, SECOND_ROUND_TARGETS, type SecondRoundQuery } from './second-round-queries.js';
import { ensureCorpus, indexBytesPerListing, rawCost } from './second-round-run.js';
import { apiUrl, COUNTRY as country, enginePids, FULL, machineDescription, OPENSEARCH, PATH, percentile, postJson, QUICK, sleep, startBenchService, type Mode } from './service.js';
import { writeResults } from './results-file.js';
import { readTaxonomy } from '../src/categories/taxonomy-file.js';
import { suggestSearchesBody } from '../src/search/query/suggest-query.js';
import { parseSuggest } from '../src/search/suggest-params.js';
import { createListingGenerator } from '../src/seed/listing-generator.js';
import { createBusinessNames } from '../src/seed/business-names.js';
import { buildSolrQuery, SOLR_RESULT_FIELD } from '../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../src/search/search-params.js';
import { searchWords } from '../src/search/words.js';
import { Faker, de, base } from '@faker-js/faker';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const quick = process.argv.includes('--quick');
const SMOKE: Mode = { name: 'smoke', listings: 5_000, seconds: 5, db: 'listings_bench_smoke', prefix: 'benchsmoke-' };
const mode = process.argv.includes('--smoke') ? SMOKE : quick ? QUICK : process.argv.includes('--path') ? PATH : FULL;
const perClass = Number(arg('--per-class') ?? 300);
const seed = Number(arg('--seed') ?? 7);

const service = await startBenchService(mode);
const { auth, db, alias } = service;

// The corpus: every listing a Solr-mode search may return (active, not suppressed).
async function loadCorpus(): Promise<CorpusListing[]> {
  const rows = (
    await db.query(
      `select l.id, l.name, l.place, l.zip, l.latitude, l.longitude,
      array(select c.name from listing_categories lc join categories c on c.country = lc.country and c.id = lc.category_id
            where lc.listing_id = l.id order by lc.position) as categories,
      array(select lc.category_id from listing_categories lc where lc.listing_id = l.id order by lc.position) as category_ids
    from listings l where l.country = $1 and l.active and not l.suppressed and l.deleted_at is null order by l.id`,
      [country],
    )
  ).rows;
  return rows.map((r) => ({ id: Number(r.id), name: r.name, place: r.place, zip: r.zip, lat: r.latitude, lon: r.longitude, categories: r.categories, categoryIds: r.category_ids }));
}

/**
 * Pairs of listings with the same (new) name, 2 km and 12 km from a point: the nearer must come
 * first. Created through the API once per seed and found again on later runs.
 */
async function twinQueries(corpus: CorpusListing[], count: number) {
  const faker = new Faker({ locale: [de, base] });
  faker.seed(seed);
  const rng = random(seed + 1);
  const names = createBusinessNames(faker);
  const located = corpus.filter((l) => l.lat !== null);
  const twins: { name: string; lat: number; lon: number; near: number; far: number }[] = [];
  for (let i = 0; i < count; i++) {
    const origin = rng.pick(located);
    const name = `${names('Bäckerei', 'shop/bakery')} Zwilling ${i}-${seed}`;
    const at = (km: number) => {
      const angle = rng.next() * 2 * Math.PI;
      return { latitude: origin.lat! + (km / 111.2) * Math.cos(angle), longitude: origin.lon! + (km / (111.2 * Math.cos((origin.lat! * Math.PI) / 180))) * Math.sin(angle) };
    };
    const ids: number[] = [];
    for (const spot of [at(2), at(12)]) {
      const existing = (await db.query('select id from listings where name = $1 and deleted_at is null and round(latitude::numeric, 5) = round($2::numeric, 5)', [name, spot.latitude])).rows[0];
      if (existing) {
        ids.push(Number(existing.id));
        continue;
      }
      const res = await fetch(apiUrl(`/${country}/listings`), {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name, address: 'Zwillingsweg 1', zip: origin.zip, place: origin.place, ...spot, categories: [{ id: 'shop/bakery' }] }),
      });
      if (res.status !== 201) throw new Error(`twin create: ${res.status} ${await res.text()}`);
      ids.push(Number(((await res.json()) as { id: string }).id));
    }
    twins.push({ name, lat: origin.lat!, lon: origin.lon!, near: ids[0]!, far: ids[1]! });
  }
  // Searchable within 2 s of the write (docs/contract.md §12); a little margin for the batch.
  await sleep(3000);
  return twins;
}

type Params = Record<string, string | number>;
const search = (params: Params) => `/${country}/listings?${new URLSearchParams({ solr: 'true', limit: '50', ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) })}`;

/** Type-ahead through the API: each suggestion as a listing id (a number) or a category id. */
async function viaSuggest(params: Params): Promise<(number | string)[]> {
  const path = `/${country}/suggest?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
  const res = await fetch(apiUrl(path), { headers: auth });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { suggestions: { type: string; id: string }[] };
  return body.suggestions.map((s) => (s.type === 'listing' ? Number(s.id) : s.id));
}

async function viaApi(params: Params): Promise<{ ids: number[]; numFound: number }> {
  const res = await fetch(apiUrl(search(params)), { headers: auth });
  if (res.status !== 200) throw new Error(`${search(params)}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { numFound: number; listings: { lid: number }[] };
  return { ids: body.listings.map((l) => l.lid), numFound: body.numFound };
}

const toSearch = (params: Params) => parseListingSearch({ solr: true, limit: 50, ...params } as never) as Extract<ListingSearch, { kind: 'solr' }>;

async function rawSearch(body: unknown): Promise<{ ids: number[]; ms: number }> {
  const started = performance.now();
  const answer = JSON.parse(await postJson(`${OPENSEARCH}/${alias}/_search`, JSON.stringify(body))) as { hits: { hits: { fields: Record<string, string[]> }[] } };
  return { ids: answer.hits.hits.map((h) => (JSON.parse(h.fields[SOLR_RESULT_FIELD]![0]!) as { lid: number }).lid), ms: performance.now() - started };
}

const fmt = (x: number) => x.toFixed(3);

// The second round's corpus, among the data set's listings, at places of the data set's kind.
const taxonomy = readTaxonomy();
// In id order: the places drawn below depend on it, and a later run must draw the same ones.
const localNames = new Map((await db.query('select id, name from categories where country = $1 order by id', [country])).rows.map((r) => [r.id as string, r.name as string]));
const localName = (id: string) => localNames.get(id) ?? id;
const nextPlace = createListingGenerator({ country, seed: seed + 100, categories: [...localNames].map(([id, name]) => ({ id, name })) });
const spots = Array.from({ length: 3000 }, () => {
  const g = nextPlace();
  return { place: g.place, latitude: g.latitude, longitude: g.longitude };
});
const specs = buildCorpus({ seed, taxonomy, spots, localName });
const specIds = await ensureCorpus({ db, auth, alias, seed, specs });

const corpus = await loadCorpus();
// The first classes are made from the data set as before, without the second round's listings.
const secondIds = new Set(specIds.values());
const firstCorpus = corpus.filter((l) => !secondIds.has(l.id));
const twins = await twinQueries(firstCorpus, Math.max(50, Math.floor(perClass / 2)));
const categoryWords = new Set((await db.query('select name from categories where country = $1', [country])).rows.flatMap((r) => searchWords(r.name)));
const queries = buildQuerySet(firstCorpus, { seed, perClass, categoryWords });
console.error(`${corpus.length} listings, ${queries.length} labelled queries, ${twins.length} twin pairs`);

// Through the API: the whole path (parameters, query, OpenSearch, results).
const ranked: number[][] = [];
const misses: string[] = [];
let zeroTypo = 0;
for (const q of queries) {
  const { ids, numFound } = await viaApi(q.params);
  ranked.push(ids);
  if (q.class === 'one edit' && numFound === 0) zeroTypo++;
  if (!ids.slice(0, 10).some((id) => q.relevant.includes(id))) {
    misses.push(`${q.class}${q.group ? ` [${q.group}]` : ''}: ${JSON.stringify(q.params)} (${q.note}) relevant ${q.relevant.slice(0, 5).join(',')} → got ${ids.slice(0, 5).join(',')} of ${numFound}`);
  }
}
let nearerFirst = 0;
for (const twin of twins) {
  const { ids } = await viaApi({ what: twin.name, lat: twin.lat, lon: twin.lon });
  const near = ids.indexOf(twin.near);
  const far = ids.indexOf(twin.far);
  if (near >= 0 && (far < 0 || near < far)) nearerFirst++;
  else misses.push(`nearer first: ${twin.name} near ${twin.near} at ${near}, far ${twin.far} at ${far}`);
}
// The second round: Solr-mode searches through the API, and type-ahead through GET /:country/suggest.
const secondRound = buildSecondRoundQueries({ seed, perClass, specs, ids: specIds, corpus, taxonomy, localName });
const categoriesOf = new Map(corpus.map((l) => [l.id, l.categoryIds ?? []]));
const secondRight = new Map<SecondRoundQuery, boolean>();
for (const q of secondRound) {
  const answer = q.endpoint === 'solr' ? (await viaApi({ ...q.params })).ids : await viaSuggest(q.params);
  const right = isRight(q, answer, (id) => categoriesOf.get(id) ?? []);
  secondRight.set(q, right);
  if (!right) misses.push(`${q.class}${q.group ? ` [${q.group}]` : ''}: ${JSON.stringify(q.params)} (${q.note}) relevant ${q.relevant.slice(0, 5).join(',')} → got ${answer.slice(0, 10).join(',')}`);
}
writeFileSync(arg('--misses') ?? `bench/relevance-misses-${mode.name}.log`, `${misses.join('\n')}\n`);

const rows: string[] = [];
const groups = new Map<string, { queries: LabelledQuery[]; ranked: number[][] }>();
queries.forEach((q, i) => {
  for (const key of [q.class, ...(q.group ? [`${q.class} — ${q.group}`] : [])]) {
    const g = groups.get(key) ?? groups.set(key, { queries: [], ranked: [] }).get(key)!;
    g.queries.push(q);
    g.ranked.push(ranked[i]!);
  }
});
const TARGETS: Partial<Record<string, string>> = {
  'exact name': '@1 ≥ 0.99',
  'one edit': '@10 ≥ 0.98',
  'two edits': '@10 ≥ 0.90',
  transliteration: '@10 ≥ 0.98',
  'all capitals': '@10 ≥ 0.98',
  'what + where, a typo in each': '@10 ≥ 0.95',
};
for (const cls of QUERY_CLASSES) {
  for (const [key, g] of groups) {
    if (key !== cls && !key.startsWith(`${cls} — `)) continue;
    const s = score(g.queries, g.ranked);
    rows.push(
      `| ${key === cls ? `**${key}**` : `  ${key.slice(cls.length + 3)}`} | ${s.n} | ${fmt(s.at1)} | ${fmt(s.at10)} | ${fmt(s.at50)} | ${fmt(s.mrr)} | ${key === cls ? (TARGETS[cls] ?? '') : ''} |`,
    );
  }
}
rows.push(`| **nearer first** (same name 2 km and 12 km away) | ${twins.length} | ${fmt(nearerFirst / twins.length)} | | | | ≥ 0.98 |`);

// --designs: every query design raw against OpenSearch, one connection, CPU read from /proc.
const designRows: string[] = [];
if (process.argv.includes('--designs')) {
  const { opensearch: osPid } = await enginePids();
  for (const design of SEARCH_DESIGNS) {
    const byClass: { cls: string; cpuMs: number; p50: number; p99: number; recall10: number }[] = [];
    for (const cls of QUERY_CLASSES) {
      const classQueries = queries.filter((q) => q.class === cls);
      const bodies = classQueries.map((q) => design.build(toSearch(q.params)));
      for (const body of bodies.slice(0, 20)) await rawSearch(body); // warm caches for this shape
      const cpuBefore = cpuSeconds(osPid);
      const results: { ids: number[]; ms: number }[] = [];
      for (const body of bodies) results.push(await rawSearch(body));
      const cpuMs = ((cpuSeconds(osPid) - cpuBefore) * 1000) / bodies.length;
      const s = score(
        classQueries,
        results.map((r) => r.ids),
      );
      byClass.push({
        cls,
        cpuMs,
        p50: percentile(
          results.map((r) => r.ms),
          50,
        ),
        p99: percentile(
          results.map((r) => r.ms),
          99,
        ),
        recall10: s.at10,
      });
    }
    const median = (xs: number[]) => percentile(xs, 50);
    designRows.push(
      `| ${design.name} | ${byClass.map((c) => fmt(c.recall10)).join(' | ')} | ${median(byClass.map((c) => c.cpuMs)).toFixed(1)} (${Math.min(...byClass.map((c) => c.cpuMs)).toFixed(1)}–${Math.max(...byClass.map((c) => c.cpuMs)).toFixed(1)}) | ${median(byClass.map((c) => c.p50)).toFixed(1)} | ${Math.max(...byClass.map((c) => c.p99)).toFixed(1)} |`,
    );
    console.error(designRows.at(-1));
  }
}

// The second round's rows: the share of right answers per class, and per group.
const secondRows: string[] = [];
for (const cls of SECOND_ROUND_CLASSES) {
  const qs = secondRound.filter((q) => q.class === cls);
  const share = (list: SecondRoundQuery[]) => (list.length ? list.filter((q) => secondRight.get(q)).length / list.length : NaN);
  secondRows.push(`| **${cls}** | ${qs.length} | ${fmt(share(qs))} | ${SECOND_ROUND_TARGETS[cls].label} |`);
  for (const group of [...new Set(qs.map((q) => q.group).filter(Boolean))]) {
    const g = qs.filter((q) => q.group === group);
    secondRows.push(`|   ${group} | ${g.length} | ${fmt(share(g))} | |`);
  }
}

// Cost: OpenSearch's CPU per Solr query (every Solr class, first and second round, the production
// body raw), type-ahead's raw latency at one connection, and index bytes per listing.
const costLines: string[] = [];
if (!process.argv.includes('--no-cost')) {
  const { opensearch: osPid } = await enginePids();
  const solrClasses = [
    ...QUERY_CLASSES.map((cls) => ({ cls: cls as string, params: queries.filter((q) => q.class === cls).map((q) => q.params) })),
    ...SECOND_ROUND_CLASSES.filter((cls) => !cls.startsWith('suggest')).map((cls) => ({ cls: cls as string, params: secondRound.filter((q) => q.class === cls).map((q) => q.params) })),
  ].filter((c) => c.params.length);
  const perClass: { cls: string; cpuMs: number; p50: number }[] = [];
  for (const { cls, params } of solrClasses) {
    const run = await rawCost(
      osPid,
      params.map((p) => ({ index: alias, body: buildSolrQuery(toSearch(p)) })),
    );
    perClass.push({ cls, cpuMs: run.cpuMs, p50: run.p50 });
  }
  const cpu = perClass.map((c) => c.cpuMs);
  costLines.push(
    `| OpenSearch CPU per Solr query, median over ${perClass.length} classes (range) | ${percentile(cpu, 50).toFixed(2)} ms (${Math.min(...cpu).toFixed(2)}–${Math.max(...cpu).toFixed(2)}) | ≤ 5 ms at 1 000 000 |`,
  );
  costLines.push(`| … per class | ${perClass.map((c) => `${c.cls} ${c.cpuMs.toFixed(2)}`).join('; ')} | |`);
  // The API's one _msearch per request (categories and listings), raw.
  const indices = { categories: `${mode.prefix}categories`, listings: alias };
  const suggestRun = await rawCost(
    osPid,
    secondRound.filter((q) => q.endpoint === 'suggest').map((q) => ({ msearch: suggestSearchesBody(country, parseSuggest(q.params as never), indices) })),
  );
  costLines.push(
    `| Type-ahead raw at one connection (the API's one \`_msearch\`: categories and listings) | p50 ${suggestRun.p50.toFixed(2)} ms, p99 ${suggestRun.p99.toFixed(2)} ms; OpenSearch CPU ${suggestRun.cpuMs.toFixed(2)} ms a request | p50 ≤ 3 ms |`,
  );
  const size = await indexBytesPerListing(service.env, mode.prefix, Number(arg('--size-sample') ?? 20_000));
  costLines.push(
    `| Index bytes per listing, without → with the second round's fields (${size.listings.toLocaleString('en')} listings, one segment) | ${size.before.toFixed(0)} → ${size.after.toFixed(0)} (+${((size.after / size.before - 1) * 100).toFixed(1)} %) | ≤ +30 % |`,
  );
}

await service.stop();

const section = `${await machineDescription()}
Data set: ${corpus.length.toLocaleString('en')} searchable listings in \`${country}\` (the ${mode.name} data set of \`npm run bench\`). Query set: seed ${seed},
${perClass} queries per class generated from the data set by \`bench/relevance-queries.ts\`, run one at a time through the API
(\`solr=true\`, \`limit=50\`). A result counts as right when it is the listing the query was made from or one the query
cannot tell from it (same name; for a surname, every listing carrying it; for category + geo, the nearest listing of the
category). Misses are written to \`bench/relevance-misses-${mode.name}.log\` (not committed).

| Class | queries | recall@1 | recall@10 | recall@50 | MRR | target |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Queries that are a real listing's name with one typo and found nothing: **${zeroTypo}** (target: none).

Second round (docs/partners/search.md): queries made by \`bench/second-round-queries.ts\` from a corpus of ${specIds.size.toLocaleString('en')} listings
(\`bench/second-round-corpus.ts\`: ${GROUP_SIZES.oneBoxNames} names in two places each, ${GROUP_SIZES.category} names that lack their category's word,
${GROUP_SIZES.clusters} clusters of a category, ${GROUP_SIZES.compound} compounds written whole and ${GROUP_SIZES.splitCompound} written apart) written
into the same data set through the API. Right is: a listing of that name there (one box), of that category with that surname
(category name + surname; in the language of the group), one of the same name (compounds), the listing itself or one of its
name (type-ahead, from a point up to 1 km away, top 5 of \`limit=5\`), the category among the suggestions (4 letters), and at
least 9 of the top 10 in a category the query names, in any language (category within 3 km, \`radius=3\`, at points with at
least ten such listings within 3 km).

| Class | queries | right | target |
|---|---|---|---|
${secondRows.join('\n')}
${
  costLines.length
    ? `
What it costs (production bodies raw against OpenSearch, one connection, CPU read from /proc):

| Measure | Result | Target |
|---|---|---|
${costLines.join('\n')}
`
    : ''
}
${
  designRows.length
    ? `
Query designs, each run raw against OpenSearch on the same queries, one connection at a time: recall@10 per class, then
OpenSearch's CPU per query (median over the classes, and their range, in ms, read from /proc) and the latency (median over
the classes of each class's p50; the worst class's p99), in ms.

| Design | ${QUERY_CLASSES.join(' | ')} | CPU ms / query | p50 ms | p99 ms |
|---|${QUERY_CLASSES.map(() => '---|').join('')}---|---|---|
${designRows.join('\n')}
`
    : ''
}
Reproduce: \`npm run bench:relevance${mode === FULL ? '' : ` -- --${mode === PATH ? 'path' : mode.name}`}\`${process.argv.includes('--designs') ? ' (add `--designs` for the design table)' : ''}
`;
writeResults('bench:relevance', `relevance, ${mode.name}`, section);
console.log(section);
process.exit(0);
