import type { Command } from 'commander';
import { dropListingsIndices, ensureListingsIndices } from '../opensearch/index-setup.js';
import { indexLayout } from '../platform/config.js';
import { config, withOpenSearch } from './context.js';

export function registerIndices(program: Command): void {
  program
    .command('indices')
    .description('create missing indices and aliases')
    .option('--recreate', 'drop the listings indices of INDEX_PREFIX first (loses their documents; for tests)')
    .action((opts: { recreate?: boolean }) =>
      withOpenSearch(async (client) => {
        if (opts.recreate) await dropListingsIndices(client, config.INDEX_PREFIX);
        const created = await ensureListingsIndices(client, config.INDEX_PREFIX, config.countries, indexLayout(config));
        console.error(created.length ? `created ${created.join(', ')}` : 'indices exist');
      }),
    );
}
