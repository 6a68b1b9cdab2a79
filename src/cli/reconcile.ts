import type { Command } from 'commander';
import { reconcileCountry, repairJobs } from '../../indexer/reconcile.js';
import { indexNames } from '../opensearch/index-definitions.js';
import { createIndexQueue } from '../outbox/queue.js';
import { config, country, withSearchStack } from './context.js';

export function registerReconcile(program: Command): void {
  program
    .command('reconcile <country>')
    .description('compare PostgreSQL and OpenSearch (ids and versions); exit code 1 on differences')
    .option('--fix', 'enqueue the repairs (the indexer re-syncs each listing)')
    .action((value: string, opts: { fix?: boolean }) =>
      withSearchStack(async ({ db, opensearch }) => {
        const cc = country(value);
        const names = indexNames(config.INDEX_PREFIX);
        const { checked, differences } = await reconcileCountry({ db, opensearch, names }, cc);
        for (const d of differences.slice(0, 100)) console.log([d.kind, d.listingId, `postgres=${d.postgres ?? '-'}`, `opensearch=${d.opensearch ?? '-'}`].join('\t'));
        if (differences.length > 100) console.log(`... and ${differences.length - 100} more`);
        console.log(`${checked} listings checked, ${differences.length} differences`);
        if (opts.fix && differences.length) {
          const { jobs, unknown } = await repairJobs(db, cc, differences);
          const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
          await queue.enqueue(jobs);
          await queue.close();
          // Documents of listings PostgreSQL never had cannot be synced: remove them directly.
          for (const id of unknown) await opensearch.delete({ index: names.listingsAlias(cc), id: `${cc}:${id}` }, { ignore: [404] });
          console.log(`enqueued ${jobs.length} repairs; deleted ${unknown.length} unknown documents`);
        }
        if (differences.length) process.exitCode = 1;
      }),
    );
}
