// Creates the physical index of each country behind its aliases when the alias is missing.
// Idempotent, so both processes and the CLI may call it at start.
import { indexNames, listingsIndexDefinition } from '../../mappings/index.js';
import type { OpenSearchClient } from '../search/opensearch-client.js';

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
      body: { ...listingsIndexDefinition, aliases: { [alias]: {}, [names.listingsAllAlias]: {} } },
    });
    created.push(index);
  }
  if (created.length) await client.cluster.health({ index: created, wait_for_status: 'yellow', timeout: '30s' });
  return created;
}

/** Deletes every listings index of `prefix`, aliased or left over (tests only: they own their prefix). */
export async function dropListingsIndices(client: OpenSearchClient, prefix: string): Promise<void> {
  await client.indices.delete({ index: `${prefix}listings-*`, expand_wildcards: 'all' }, { ignore: [404] });
}
