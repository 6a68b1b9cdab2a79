// What bench/relevance.ts does for the second-round classes (docs/partners/search.md): writes the
// corpus of bench/second-round-corpus.ts through the API (once per seed; a later run finds it by its
// addresses), and measures what the new index fields and queries cost: OpenSearch's CPU per Solr
// query, the raw latency of a type-ahead request, and the index bytes per listing with and
// without the new fields.
import http from 'node:http';
import { Client } from '@opensearch-project/opensearch';
import type pg from 'pg';
import { listingDocumentOf } from '../indexer/listing-document.js';
import { listingIdPages } from '../indexer/reindex.js';
import { createDatabase } from '../src/db/client.js';
import { loadListingsForIndex } from '../src/listings/listing-reads-dal.js';
import { listingsIndexBody } from '../src/opensearch/index-setup.js';
import { indexLayout, loadConfig, publicUrls } from '../src/platform/config.js';
import { cpuSeconds } from './proc.js';
import { corpusAddress, type CorpusSpec } from './second-round-corpus.js';
import { apiUrl, COUNTRY, OPENSEARCH, percentile, post, sleep } from './service.js';

/** The index fields the second round added to every listing document (indexer/listing-document.ts). */
export const SECOND_ROUND_FIELDS = ['name_suffixes', 'name_joined', 'name_prefixes'] as const;

/**
 * Creates the corpus listings this seed's earlier runs have not, eight at a time, and returns the
 * listing id of every spec (by its position).
 */
export async function ensureCorpus(opts: { db: pg.Pool; auth: Record<string, string>; alias: string; seed: number; specs: readonly CorpusSpec[] }): Promise<Map<number, number>> {
  const { db, auth, seed, specs } = opts;
  const prefix = corpusAddress(seed, 0).replace(/0$/, '');
  const rows = (await db.query('select id, address, name, place from listings where country = $1 and deleted_at is null and address like $2', [COUNTRY, `${prefix}%`])).rows;
  const ids = new Map<number, number>();
  for (const row of rows) {
    const n = Number(String(row.address).slice(prefix.length));
    const spec = specs[n];
    // The queries are made from the specs: a listing of another corpus would make them wrong.
    if (!spec || spec.name !== row.name || spec.place !== row.place)
      throw new Error(`listing ${row.id} (${row.address}) is not what seed ${seed} makes now: the data set holds a corpus of another version; run with another --seed`);
    ids.set(n, Number(row.id));
  }
  const missing = specs.filter((s) => !ids.has(s.n));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < missing.length) {
        const spec = missing[next++]!;
        const body = JSON.stringify({
          name: spec.name,
          address: corpusAddress(seed, spec.n),
          zip: spec.zip,
          place: spec.place,
          latitude: spec.latitude,
          longitude: spec.longitude,
          categories: [{ id: spec.categoryId }],
          phones: [{ type: 'landline', number: `+4930${String(7_000_000 + spec.n)}` }],
        });
        const { status, text } = await post(apiUrl(`/${COUNTRY}/listings`), body, { headers: auth, agent });
        if (status !== 201) throw new Error(`corpus create ${spec.name}: ${status} ${text}`);
        ids.set(spec.n, Number((JSON.parse(text) as { id: string }).id));
      }
    }),
  );
  agent.destroy();
  if (missing.length) await waitSearchable(opts.alias, [...ids.values()]);
  return ids;
}

/** Waits (up to two minutes) until every listing id is in the index. */
async function waitSearchable(alias: string, lids: number[]) {
  const os = new Client({ node: OPENSEARCH });
  for (let i = 0; i < 120; i++) {
    const { body } = await os.count({ index: alias, body: { query: { terms: { lid: lids } } } });
    if (body.count === lids.length) break;
    await sleep(1000);
  }
  await os.close();
}

/** A raw request: a `_search` body for an index, or an `_msearch` body (newline-delimited JSON). */
export type RawRequest = { index: string; body: unknown } | { msearch: string };

// One keep-alive connection, as the API would hold to a node.
const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request posted raw over the one keep-alive connection: its latency in ms. */
export function rawMs(request: RawRequest): Promise<number> {
  const [path, text, type] = 'msearch' in request ? ['/_msearch', request.msearch, 'application/x-ndjson'] : [`/${request.index}/_search`, JSON.stringify(request.body), 'application/json'];
  const target = new URL(`${OPENSEARCH}${path}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: oneConnection,
        headers: { 'content-type': type, 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          answer += chunk;
        });
        res.on('end', () =>
          res.statusCode === 200 && !answer.includes('"error"') ? resolve(performance.now() - started) : reject(new Error(`raw ${path}: ${res.statusCode} ${answer.slice(0, 300)}`)),
        );
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

/** OpenSearch's CPU per request (ms, from /proc) and the latencies of `requests` run one at a time, after 20 to warm up. */
export async function rawCost(osPid: number, requests: readonly RawRequest[]) {
  for (const request of requests.slice(0, 20)) await rawMs(request);
  const before = cpuSeconds(osPid);
  const ms: number[] = [];
  for (const request of requests) ms.push(await rawMs(request));
  return { cpuMs: ((cpuSeconds(osPid) - before) * 1000) / requests.length, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * Index bytes per listing with and without the second round's fields: the same `sample` listings
 * of the data set, built by the real document mapper, bulk-indexed into two scratch indices (the
 * mapping without those fields, and the real one), each merged to one segment as a reindex does.
 */
/**
 * A scratch index whose size is read: no refreshes of its own, no replica, and its store size
 * computed on every read (OpenSearch caches it for 10 s by default, so a read right after a merge
 * could report any earlier state).
 */
export const SIZE_MEASURE_SETTINGS = { refresh_interval: '-1', number_of_replicas: 0, 'store.stats_refresh_interval': '0ms' };

export async function indexBytesPerListing(env: NodeJS.ProcessEnv, prefix: string, sample: number) {
  const config = loadConfig(env);
  const database = createDatabase(config.DATABASE_URL, 4);
  const urls = publicUrls(config);
  const os = new Client({ node: OPENSEARCH });
  const docs: ReturnType<typeof listingDocumentOf>[] = [];
  for await (const ids of listingIdPages(database.db, COUNTRY, 1000)) {
    for (const record of (await loadListingsForIndex(database.db, ids)).values()) docs.push(listingDocumentOf(record, urls));
    if (docs.length >= sample) break;
  }
  await database.close();
  const withFields = listingsIndexBody(indexLayout(config), SIZE_MEASURE_SETTINGS);
  const without = structuredClone(withFields) as { mappings: { _source: { excludes: string[] }; properties: { internal: { properties: Record<string, unknown> } } } };
  for (const field of SECOND_ROUND_FIELDS) delete without.mappings.properties.internal.properties[field];
  without.mappings._source.excludes = without.mappings._source.excludes.filter((path) => !SECOND_ROUND_FIELDS.some((field) => path === `internal.${field}`));
  const strip = (doc: (typeof docs)[number]) => {
    const internal: Record<string, unknown> = { ...doc.internal };
    for (const field of SECOND_ROUND_FIELDS) delete internal[field];
    return { ...doc, internal };
  };
  const measure = async (name: string, definition: unknown, build: (doc: (typeof docs)[number]) => object) => {
    const index = `${prefix}size-${name}-${Date.now()}`;
    await os.indices.create({ index, body: definition as never });
    try {
      for (let i = 0; i < docs.length; i += 1000) {
        const body = docs.slice(i, i + 1000).flatMap((doc) => [{ index: { _index: index, _id: doc.id } }, build(doc)]);
        const res = await os.bulk({ body, filter_path: 'errors' });
        if (res.body.errors) throw new Error(`scratch index ${index}: some documents were refused`);
      }
      await os.indices.refresh({ index });
      await os.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 600_000 });
      // The merged-away segments stay on disk while a reader holds them: a refresh lets them go.
      await os.indices.refresh({ index });
      const stats = (await os.indices.stats({ index, metric: ['store'] })).body as { _all: { primaries: { store: { size_in_bytes: number } } } };
      return stats._all.primaries.store.size_in_bytes / docs.length;
    } finally {
      await os.indices.delete({ index });
    }
  };
  const before = await measure('before', without, strip);
  const after = await measure('after', withFields, (doc) => doc);
  await os.close();
  return { listings: docs.length, before, after };
}
