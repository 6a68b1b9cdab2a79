import type { Command } from 'commander';
import { importCategories } from '../categories/categories-import.js';
import { indexLayout } from '../platform/config.js';
import { runMigrations } from '../db/client.js';
import { countLiveListings } from '../listings/listing-reads-dal.js';
import { indexNames } from '../opensearch/index-definitions.js';
import { applyReplicas, ensureListingsIndices, listingsIndicesToRebuild } from '../opensearch/index-setup.js';
import { config, reindexWithProgress, withSearchStack } from './context.js';

export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description('migrate, create missing indices, import categories, rebuild outdated or emptied indices (idempotent)')
    .action(() =>
      withSearchStack(async ({ db, opensearch }) => {
        await runMigrations(db);
        const layout = indexLayout(config);
        const names = indexNames(config.INDEX_PREFIX);
        const created = await ensureListingsIndices(opensearch, config.INDEX_PREFIX, config.countries, layout);
        const count = await importCategories({ db, opensearch, names, layout }, config.countries);
        console.error(`migrated; ${created.length ? `created ${created.join(', ')}` : 'indices exist'}; ${count} categories imported`);
        // Replicas change on a live index (shards do not: a new count rebuilds, below).
        const resized = await applyReplicas(opensearch, [...config.countries.map(names.listingsAlias), names.categoriesAlias], layout.replicas);
        if (resized.length) console.error(`set ${layout.replicas} replicas on ${resized.join(', ')}`);
        // A new mapping or document format, or an OpenSearch whose data is gone while PostgreSQL
        // still has the listings: rebuild from PostgreSQL, the source of truth.
        for (const { country: cc, reason } of await listingsIndicesToRebuild(opensearch, config.INDEX_PREFIX, config.countries, layout, (c) => countLiveListings(db, c))) {
          console.error(`rebuilding the index of ${cc}: it ${reason}`);
          const result = await reindexWithProgress(db, opensearch, cc);
          console.error(`rebuilt ${result.index} with ${result.documents} listings`);
        }
      }),
    );
}
