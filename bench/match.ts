// Calibration benchmark of POST /:country/listings/match (docs/contract.md §17): listings of the
// bench data set (bench/service.ts prepares it, as for every benchmark), look-alike listings
// created beside some of them, and a labelled request set (bench/match-queries.ts) run one at a
// time through the API. Measures the precision of candidates scored ≥ 0.8, the recall of the
// listing meant as top candidate, latency, and how often each score bucket is right.
//   npm run bench:match -- --quick        50 000 listings, 300 sampled
//   npm run bench:match                   1 000 000 listings, 1 000 sampled
//   options: --listings N  --seed S (default 11)  --misses FILE
import { writeFileSync } from 'node:fs';
import { Faker, de, base } from '@faker-js/faker';
import { MATCH_DEFAULTS } from '../src/match/match-defaults.js';
import type { MatchCandidateResult } from '../src/schemas/match.js';
import { createBusinessNames } from '../src/seed/business-names.js';
import { BUCKETS, bucketOf, buildMatchSet, MATCH_CLASSES, planDecoys, type DecoyPlan, type LabelledMatch, type SampleListing } from './match-queries.js';
import { apiUrl, COUNTRY as country, FULL, machineDescription, percentile, QUICK, sleep, startBenchService } from './service.js';
import { writeResults } from './results-file.js';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const quick = process.argv.includes('--quick');
const mode = quick ? QUICK : FULL;
const sampleSize = Number(arg('--listings') ?? (quick ? 300 : 1000));
const seed = Number(arg('--seed') ?? 11);
/** Keyword that marks the look-alikes this benchmark created, so that no later sample picks them. */
const DECOY = 'match-bench-decoy';

const service = await startBenchService(mode);
const { auth, db } = service;

/** `size` listings in a fixed pseudo-random order of the seed: with their first phone and category. */
async function loadSample(size: number): Promise<SampleListing[]> {
  const rows = (
    await db.query(
      `select l.id, l.name, l.address, l.zip, l.place, l.latitude, l.longitude, c.id as category_id, c.name as category_name,
      (select p.number from listing_phones p where p.listing_id = l.id order by p.position limit 1) as phone
    from listings l
    join listing_categories lc on lc.listing_id = l.id and lc.position = 0
    join categories c on c.country = lc.country and c.id = lc.category_id
    where l.country = $1 and not l.suppressed and l.deleted_at is null and not ($2 = any(l.keywords))
    order by md5(l.id::text || $3) limit $4`,
      [country, DECOY, String(seed), size],
    )
  ).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    address: r.address,
    zip: r.zip,
    place: r.place,
    lat: r.latitude,
    lon: r.longitude,
    phone: r.phone,
    categoryId: r.category_id,
    categoryName: r.category_name,
  }));
}

const post = async (path: string, body: unknown) => {
  const started = performance.now();
  const res = await fetch(apiUrl(path), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
};

/** Creates the planned look-alikes through the API, once per seed: later runs find them by their label. */
async function createDecoys(plans: DecoyPlan[]): Promise<Map<number, { id: number; kind: DecoyPlan['kind'] }[]>> {
  const byListing = new Map<number, { id: number; kind: DecoyPlan['kind'] }[]>();
  // The look-alikes of earlier runs, in one pass over the table (keywords have no index: a query
  // per plan scanned all 1 000 000 listings each time).
  const { rows: labelled } = await db.query<{ id: string; label: string }>(`select id, label from listings, unnest(keywords) label where $1 = any(keywords) and deleted_at is null and label like $2`, [
    DECOY,
    `${DECOY}:%`,
  ]);
  const existing = new Map(labelled.map((row) => [row.label, Number(row.id)]));
  let last: DecoyPlan | undefined;
  for (const plan of plans) {
    const label = `${DECOY}:${seed}:${plan.of}:${plan.kind}`;
    let id = existing.get(label);
    if (id === undefined) {
      const { categoryId, ...fields } = plan.listing;
      const res = await post(`/${country}/listings`, { ...fields, keywords: [DECOY, label], categories: [{ id: categoryId }] });
      if (res.status !== 201) throw new Error(`decoy create: ${res.status} ${res.text}`);
      id = Number((JSON.parse(res.text) as { id: string }).id);
      last = plan;
    }
    (byListing.get(plan.of) ?? byListing.set(plan.of, []).get(plan.of)!).push({ id, kind: plan.kind });
  }
  // Matchable within 2 s of the write (docs/contract.md §12): wait for the last one created.
  if (last) {
    const { categoryId: _, ...request } = last.listing;
    for (let i = 0; i < 100; i++) {
      const res = await post(`/${country}/listings/match`, request);
      if (res.status === 200 && (JSON.parse(res.text) as { candidates: MatchCandidateResult[] }).candidates.some((c) => c.name === last!.listing.name && c.address === last!.listing.address)) break;
      await sleep(100);
    }
  }
  return byListing;
}

const faker = new Faker({ locale: [de, base] });
faker.seed(seed);
const businessName = createBusinessNames(faker);
const sample = await loadSample(sampleSize);
// Half of the sample gets look-alike listings beside it; the other half is what the requests for
// unlisted look-alikes resemble (kept apart, so that no such request describes a created decoy).
const half = Math.floor(sample.length / 2);
const decoyed = sample.slice(0, half);
const lookalikes = sample.slice(half);
const decoys = await createDecoys(planDecoys(decoyed, sample, { seed, businessName }));
const requests = buildMatchSet(sample, lookalikes, { seed, businessName });
console.error(`${sample.length} sampled listings, ${[...decoys.values()].flat().length} look-alikes, ${requests.length} labelled requests`);

interface Outcome {
  q: LabelledMatch;
  candidates: MatchCandidateResult[];
  ms: number;
}
const outcomes: Outcome[] = [];
for (const q of requests.slice(0, 20)) await post(`/${country}/listings/match`, q.request); // warm-up
for (const q of requests) {
  const res = await post(`/${country}/listings/match`, q.request);
  if (res.status !== 200) throw new Error(`match ${JSON.stringify(q.request)}: ${res.status} ${res.text}`);
  outcomes.push({ q, candidates: (JSON.parse(res.text) as { candidates: MatchCandidateResult[] }).candidates, ms: res.ms });
}
await service.stop();

const HIGH = 0.8;
const isRight = (q: LabelledMatch, c: MatchCandidateResult) => q.expected !== null && Number(c.id) === q.expected;
const decoyKind = (q: LabelledMatch, c: MatchCandidateResult) => (q.expected === null ? undefined : decoys.get(q.expected)?.find((d) => d.id === Number(c.id))?.kind);
const share = (a: number, b: number) => (b ? (a / b).toFixed(3) : '–');

const high = outcomes.flatMap((o) => o.candidates.filter((c) => c.score >= HIGH).map((c) => ({ o, c })));
const highRight = high.filter(({ o, c }) => isRight(o.q, c)).length;
const positives = outcomes.filter((o) => o.q.expected !== null);
const top1 = positives.filter((o) => o.candidates[0] && isRight(o.q, o.candidates[0])).length;
const positivesHigh = positives.filter((o) => o.candidates.some((c) => isRight(o.q, c) && c.score >= HIGH)).length;
const latencies = outcomes.map((o) => o.ms);

const misses: string[] = [];
for (const { o, c } of high) {
  if (!isRight(o.q, c))
    misses.push(
      `wrong ≥ ${HIGH}: [${o.q.class}] ${JSON.stringify(o.q.request)} (${o.q.note}) → ${c.id} ${c.name}, ${c.address}, ${c.zip} ${c.place} score ${c.score} ${JSON.stringify(c.signals)}${decoyKind(o.q, c) ? ` (decoy: ${decoyKind(o.q, c)})` : ''}`,
    );
}
for (const o of positives) {
  if (!o.candidates[0] || !isRight(o.q, o.candidates[0])) {
    misses.push(`not first: [${o.q.class}] ${JSON.stringify(o.q.request)} (${o.q.note}) expected ${o.q.expected} → ${o.candidates.map((c) => `${c.id} ${c.score}`).join(', ') || 'no candidate'}`);
  }
}
writeFileSync(arg('--misses') ?? `bench/match-misses-${mode.name}.log`, `${misses.join('\n')}\n`);

const classRows = MATCH_CLASSES.map((cls) => {
  const of = outcomes.filter((o) => o.q.class === cls);
  const labelled = of.filter((o) => o.q.expected !== null);
  const first = labelled.filter((o) => o.candidates[0] && isRight(o.q, o.candidates[0])).length;
  const meantHigh = labelled.filter((o) => o.candidates.some((c) => isRight(o.q, c) && c.score >= HIGH)).length;
  const wrongHigh = of.filter((o) => o.candidates.some((c) => c.score >= HIGH && !isRight(o.q, c))).length;
  return `| ${cls} | ${of.length} | ${labelled.length ? share(first, labelled.length) : '–'} | ${labelled.length ? share(meantHigh, labelled.length) : '–'} | ${share(wrongHigh, of.length)} |`;
});

const reliability = BUCKETS.map((bucket) => {
  const inBucket = outcomes.flatMap((o) => o.candidates.filter((c) => bucketOf(c.score) === bucket).map((c) => isRight(o.q, c)));
  return `| ${bucket.toFixed(1)}–${(bucket + 0.1).toFixed(1)} | ${inBucket.length} | ${share(inBucket.filter(Boolean).length, inBucket.length)} |`;
});

const section = `${await machineDescription()}
Data set: the ${mode.name} data set of \`npm run bench\` (\`${country}\`). ${sample.length} listings sampled with seed ${seed}; beside
${decoyed.length} of them the benchmark created three look-alikes each (another business of the category in the same street,
the same name in another city, the same name 2 km away). Requests (\`bench/match-queries.ts\`): an unchanged copy (name,
address, zip, place) and a perturbed copy of every sampled listing (a typo, "Str." ↔ "Straße", the phone in national format,
coordinates moved up to 150 m, a legal form dropped or added, fields left out), and for each of the other ${lookalikes.length}
listings a request for an unlisted business that resembles it, which must match nothing at ≥ ${HIGH}. Run one at a time
through the API. Failures are written to \`bench/match-misses-${mode.name}.log\` (not committed).

| Measure | value | target |
|---|---|---|
| precision: candidates scored ≥ ${HIGH} that are the listing meant | ${share(highRight, high.length)} (${highRight} of ${high.length}) | ≥ 0.98 |
| recall: the listing meant is the top candidate | ${share(top1, positives.length)} (${top1} of ${positives.length}) | ≥ 0.95 |
| the listing meant is scored ≥ ${HIGH} | ${share(positivesHigh, positives.length)} | |
| latency p50 / p99 (ms, one connection) | ${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} | |

| Class | requests | top candidate is the listing meant | listing meant scored ≥ ${HIGH} | a wrong candidate scored ≥ ${HIGH} |
|---|---|---|---|---|
${classRows.join('\n')}

Reliability: every candidate returned, by score bucket, and the share that is the listing meant.

| Score | candidates | share that are the listing meant |
|---|---|---|
${reliability.join('\n')}

Model: \`src/match/match-defaults.ts\` (bias ${MATCH_DEFAULTS.model.bias}, name ${MATCH_DEFAULTS.model.name.weight} × (s − ${MATCH_DEFAULTS.model.name.neutral}), name gate ${MATCH_DEFAULTS.nameGate.below} → ≤ ${MATCH_DEFAULTS.nameGate.maxScore}).
Reproduce: \`npm run bench:match${quick ? ' -- --quick' : ''}\`
`;
writeResults('bench:match', `match, ${mode.name}`, section);
console.log(section);
process.exit(0);
