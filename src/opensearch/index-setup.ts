// Creates the physical index of each country behind its aliases when the alias is missing.
// Idempotent, so both processes and the CLI may call it at start.
import { createHash } from 'node:crypto';
import type { OpenSearchClient } from './client.js';
import { DOCUMENT_FORMAT, indexNames, listingsIndexDefinition, type IndexDefinition } from './index-definitions.js';

/**
 * The listings index definition with a fingerprint of what builds it in the mapping's `_meta`:
 * mappings/listings.json and the document format. `setup` rebuilds an index whose fingerprint
 * differs, so neither a mapping change nor a new document field needs a manual reindex.
 */
const fingerprint = createHash('sha256').update(`${JSON.stringify(listingsIndexDefinition)}\n${DOCUMENT_FORMAT}`).digest('hex').slice(0, 16);
export const listingsIndexBody = (settings: Record<string, unknown> = {}): IndexDefinition => ({
  ...listingsIndexDefinition,
  settings: { ...listingsIndexDefinition.settings, ...settings },
  mappings: { ...listingsIndexDefinition.mappings, _meta: { fingerprint } },
});

export async function ensureListingsIndices(client: OpenSearchClient, prefix: string, countries: readonly string[]): Promise<string[]> {
  const names = indexNames(prefix);
  const created: string[] = [];
  for (const cc of countries) {
    const alias = names.listingsAlias(cc);
    const exists = await client.indices.existsAlias({ name: alias });
    if (exists.body) continue;
    const index = names.newListingsIndex(cc);
    await client.indices.create({
      index,
      body: { ...listingsIndexBody(), aliases: { [alias]: {}, [names.listingsAllAlias]: {} } },
    });
    created.push(index);
  }
  if (created.length) await client.cluster.health({ index: created, wait_for_status: 'yellow', timeout: '30s' });
  return created;
}

/**
 * Countries whose index needs a rebuild from PostgreSQL: built from another fingerprint (a
 * mapping or document change), or empty while PostgreSQL has live listings
 * (`liveListings(cc)`): its data is gone, e.g. OpenSearch started on a new data directory.
 */
export async function listingsIndicesToRebuild(
  client: OpenSearchClient, prefix: string, countries: readonly string[], liveListings: (country: string) => Promise<number>,
): Promise<{ country: string; reason: string }[]> {
  const names = indexNames(prefix);
  const rebuild: { country: string; reason: string }[] = [];
  for (const cc of countries) {
    const alias = names.listingsAlias(cc);
    const mapping = await client.indices.getMapping({ index: alias }, { ignore: [404] });
    if (mapping.statusCode === 404) continue; // no index yet: ensureListingsIndices creates it
    const built = Object.values(mapping.body as Record<string, { mappings: { _meta?: { fingerprint?: string } } }>)[0]?.mappings._meta?.fingerprint;
    if (built !== fingerprint) {
      rebuild.push({ country: cc, reason: 'was built from another mapping or document format' });
      continue;
    }
    await client.indices.refresh({ index: alias });
    const { body } = await client.count({ index: alias });
    const live = await liveListings(cc);
    if (body.count === 0 && live > 0) rebuild.push({ country: cc, reason: `holds ${body.count} documents for ${live} listings` });
  }
  return rebuild;
}

/** Deletes every listings index of `prefix`, aliased or left over (tests only: they own their prefix). */
export async function dropListingsIndices(client: OpenSearchClient, prefix: string): Promise<void> {
  await client.indices.delete({ index: `${prefix}listings-*`, expand_wildcards: 'all' }, { ignore: [404] });
}
