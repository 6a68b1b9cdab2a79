import type { Command } from 'commander';
import { country, reindexWithProgress, withSearchStack } from './context.js';

export function registerReindex(program: Command): void {
  program
    .command('reindex <country>')
    .description("rebuild the country's index from PostgreSQL, swap the alias atomically, catch up, drop the old index")
    .action((cc: string) =>
      withSearchStack(async ({ db, opensearch }) => {
        const begun = Date.now();
        const result = await reindexWithProgress(db, opensearch, country(cc));
        const seconds = (Date.now() - begun) / 1000;
        console.log(
          `reindexed ${result.documents} listings into ${result.index} in ${seconds.toFixed(1)} s ` +
            `(${Math.round(result.documents / seconds)}/s); caught up ${result.caughtUp}; dropped ${result.droppedIndices.join(', ') || 'nothing'}`,
        );
      }),
    );
}
