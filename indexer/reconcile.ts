// Compares what PostgreSQL holds (live listings and their versions) with what the index holds,
// streaming both in id order, so it runs in constant memory over millions of listings. Versions
// say it all, the analyst fields included: everything a document shows, an offer, a claim, an
// image, a website review, moves the listing's version (src/listings/change-listing.ts); only a
// partner's private review does not, and it shows in no field.
import type { Db } from '../src/db/client.js';
import { liveListingVersionsAfter, versionsOf } from '../src/listings/listing-reads-dal.js';
import type { OpenSearchClient } from '../src/opensearch/client.js';
import type { IndexNames } from '../src/opensearch/index-definitions.js';
import { searchThroughPool } from '../src/opensearch/pool-request.js';

export interface Difference {
  listingId: number;
  kind: 'missing' | 'extra' | 'version';
  postgres?: number;
  opensearch?: number;
}

type Entry = { id: number; version: number };

async function* postgresEntries(db: Db, country: string, pageSize: number): AsyncGenerator<Entry> {
  let last = 0;
  for (;;) {
    const rows = await liveListingVersionsAfter(db, country, last, pageSize);
    if (rows.length === 0) return;
    yield* rows;
    last = rows[rows.length - 1]!.id;
  }
}

async function* indexEntries(client: OpenSearchClient, index: string, pageSize: number): AsyncGenerator<Entry> {
  let after: number[] | undefined;
  for (;;) {
    const body = { query: { match_all: {} }, sort: [{ lid: 'asc' }], size: pageSize, _source: ['lid', 'version'], ...(after ? { search_after: after } : {}) };
    const page = await searchThroughPool<{ hits: { hits: { _source: { lid: number; version: number }; sort: number[] }[] } }>(client, { index, body: JSON.stringify(body) });
    const { hits } = page.hits;
    if (hits.length === 0) return;
    for (const hit of hits) yield { id: hit._source.lid, version: hit._source.version };
    after = hits[hits.length - 1]!.sort;
  }
}

export async function reconcileCountry(deps: { db: Db; opensearch: OpenSearchClient; names: IndexNames }, country: string, pageSize = 5000): Promise<{ checked: number; differences: Difference[] }> {
  // Compare against everything OpenSearch has accepted, not only what the last refresh made visible.
  await deps.opensearch.indices.refresh({ index: deps.names.listingsAlias(country) });
  const pg = postgresEntries(deps.db, country, pageSize);
  const os = indexEntries(deps.opensearch, deps.names.listingsAlias(country), pageSize);
  const differences: Difference[] = [];
  let checked = 0;
  let a = await pg.next();
  let b = await os.next();
  while (!a.done || !b.done) {
    checked++;
    if (b.done || (!a.done && a.value.id < b.value.id)) {
      differences.push({ listingId: a.value!.id, kind: 'missing', postgres: a.value!.version });
      a = await pg.next();
    } else if (a.done || b.value.id < a.value.id) {
      differences.push({ listingId: b.value.id, kind: 'extra', opensearch: b.value.version });
      b = await os.next();
    } else {
      if (a.value.version !== b.value.version) differences.push({ listingId: a.value.id, kind: 'version', postgres: a.value.version, opensearch: b.value.version });
      a = await pg.next();
      b = await os.next();
    }
  }
  return { checked, differences };
}

/** The jobs that repair the differences: the indexer re-syncs each listing from PostgreSQL. */
export async function repairJobs(db: Db, country: string, differences: Difference[]) {
  const ids = differences.map((d) => d.listingId);
  if (ids.length === 0) return { jobs: [], unknown: [] };
  // A listing only in the index either is soft-deleted (sync deletes it) or never existed.
  const known = await versionsOf(db, ids);
  return {
    jobs: ids.filter((id) => known.has(id)).map((id) => ({ listingId: id, country, version: known.get(id)! })),
    unknown: ids.filter((id) => !known.has(id)),
  };
}
