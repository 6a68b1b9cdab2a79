import type { Command } from 'commander';
import { importCategories } from '../categories/categories-import.js';
import { indexNames } from '../opensearch/index-definitions.js';
import { indexLayout } from '../platform/config.js';
import { config, withSearchStack } from './context.js';

export function registerCategories(program: Command): void {
  const categories = program.command('categories').description('category taxonomy');
  categories
    .command('import')
    .description('load the shipped taxonomy')
    .option('--file <path>', 'taxonomy JSON file')
    .action((opts: { file?: string }) =>
      withSearchStack(async ({ db, opensearch }) => {
        const count = await importCategories({ db, opensearch, names: indexNames(config.INDEX_PREFIX), layout: indexLayout(config) }, config.countries, opts.file);
        console.error(`imported ${count} categories for ${config.countries.join(', ')}`);
      }),
    );
}
