// Creates the physical index of each country behind its aliases when the alias is missing.
// Idempotent, so both processes and the CLI may call it at start.
import { createHash } from 'node:crypto';
import type { OpenSearchClient } from './client.js';
import { DOCUMENT_FORMAT, indexNames, listingsIndexDefinition, type IndexDefinition, type IndexLayout } from './index-definitions.js';

/**
 * A fingerprint of what builds a listings index, kept in the mapping's `_meta`:
 * mappings/listings.json, the document format and the number of shards. `setup` rebuilds an index
 * whose fingerprint differs, so neither a mapping change, a new document field nor a new shard
 * count needs a manual reindex. Replicas are not part of it: OpenSearch changes them on a live
 * index (applyReplicas), while shards are fixed when an index is created.
 */
const fingerprintOf = (shards: number) =>
  createHash('sha256')
    .update(`${JSON.stringify(listingsIndexDefinition)}\n${DOCUMENT_FORMAT}\nshards=${shards}`)
    .digest('hex')
    .slice(0, 16);

export const listingsIndexBody = (layout: IndexLayout, settings: Record<string, unknown> = {}): IndexDefinition => ({
  ...listingsIndexDefinition,
  settings: { number_of_shards: layout.shards, number_of_replicas: layout.replicas, ...listingsIndexDefinition.settings, ...settings },
  mappings: { ...listingsIndexDefinition.mappings, _meta: { fingerprint: fingerprintOf(layout.shards) } },
});

export async function ensureListingsIndices(client: OpenSearchClient, prefix: string, countries: readonly string[], layout: IndexLayout): Promise<string[]> {
  const names = indexNames(prefix);
  const created: string[] = [];
  for (const cc of countries) {
    const alias = names.listingsAlias(cc);
    const exists = await client.indices.existsAlias({ name: alias });
    if (exists.body) continue;
    const index = names.newListingsIndex(cc);
    await client.indices.create({
      index,
      body: { ...listingsIndexBody(layout), aliases: { [alias]: {}, [names.listingsAllAlias]: {} } },
    });
    created.push(index);
  }
  // Yellow: every primary is allocated, so the index takes writes; copies may still be recovering.
  if (created.length) await client.cluster.health({ index: created, wait_for_status: 'yellow', timeout: '30s' });
  return created;
}

/**
 * Countries whose index needs a rebuild from PostgreSQL: built from another fingerprint (a
 * mapping, document or shard count change), or empty while PostgreSQL has live listings
 * (`liveListings(cc)`): its data is gone, e.g. OpenSearch started on a new data directory.
 */
export async function listingsIndicesToRebuild(
  client: OpenSearchClient,
  prefix: string,
  countries: readonly string[],
  layout: IndexLayout,
  liveListings: (country: string) => Promise<number>,
): Promise<{ country: string; reason: string }[]> {
  const names = indexNames(prefix);
  const rebuild: { country: string; reason: string }[] = [];
  for (const cc of countries) {
    const alias = names.listingsAlias(cc);
    const mapping = await client.indices.getMapping({ index: alias }, { ignore: [404] });
    if (mapping.statusCode === 404) continue; // no index yet: ensureListingsIndices creates it
    const built = Object.values(mapping.body as Record<string, { mappings: { _meta?: { fingerprint?: string } } }>)[0]?.mappings._meta?.fingerprint;
    if (built !== fingerprintOf(layout.shards)) {
      rebuild.push({ country: cc, reason: 'was built from another mapping, document format or shard count' });
      continue;
    }
    await client.indices.refresh({ index: alias });
    const { body } = await client.count({ index: alias });
    const live = await liveListings(cc);
    if (body.count === 0 && live > 0) rebuild.push({ country: cc, reason: `holds ${body.count} documents for ${live} listings` });
  }
  return rebuild;
}

/**
 * Sets the replicas of the indices behind `aliases` to `replicas` where they differ; returns the
 * indices changed. A live settings update: OpenSearch copies or drops shard copies in the
 * background while the index keeps answering. Missing aliases are skipped.
 */
export async function applyReplicas(client: OpenSearchClient, aliases: readonly string[], replicas: number): Promise<string[]> {
  const res = await client.indices.getSettings({ index: aliases.join(','), name: 'index.number_of_replicas', ignore_unavailable: true });
  const current = res.body as Record<string, { settings: { index: { number_of_replicas: string } } }>;
  const differing = Object.keys(current).filter((index) => Number(current[index]!.settings.index.number_of_replicas) !== replicas);
  if (differing.length) await client.indices.putSettings({ index: differing.join(','), body: { index: { number_of_replicas: replicas } } });
  return differing;
}

/** Deletes every listings index of `prefix`, aliased or left over (tests only: they own their prefix). */
export async function dropListingsIndices(client: OpenSearchClient, prefix: string): Promise<void> {
  await client.indices.delete({ index: `${prefix}listings-*`, expand_wildcards: 'all' }, { ignore: [404] });
}
