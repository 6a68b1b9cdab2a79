import type { Command } from 'commander';
import { pendingEventsSummary } from '../outbox/outbox-dal.js';
import { createIndexQueue } from '../outbox/queue.js';
import { config, withDatabase } from './context.js';

export function registerOutbox(program: Command): void {
  const outbox = program.command('outbox').description('the index event outbox');
  outbox
    .command('status')
    .description("pending events, the oldest one's age, and the queue")
    .action(() =>
      withDatabase(async ({ db }) => {
        const row = await pendingEventsSummary(db);
        const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
        const counts = await queue.queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => 'Redis unreachable');
        await queue.close();
        const age = row.oldest ? `${((Date.now() - new Date(row.oldest).getTime()) / 1000).toFixed(1)} s` : '-';
        console.log(`pending events: ${row.pending}\noldest pending: ${age}\nqueue: ${JSON.stringify(counts)}`);
      }),
    );
}
