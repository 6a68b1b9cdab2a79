// Gives committed changes their feed positions (docs/contract.md §14) on a short timer, so that
// consumers that do not read the feed (webhook deliveries) see every change soon after its
// commit. Feed readers and the export sequence too (src/changes/changes-service.ts); the passes
// exclude each other by an advisory lock, so several instances may run this.
import type { Logger } from 'pino';
import { sequenceIfPending } from '../src/changes/changes-service.js';
import type { Db } from '../src/db/client.js';

export function startSequencer({ db, logger, intervalMs }: { db: Db; logger: Logger; intervalMs: number }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return; // a slow pass is not queued behind by more passes
    busy = true;
    running = sequenceIfPending(db).then(
      () => {
        busy = false;
      },
      (err) => {
        busy = false;
        logger.warn({ err }, 'change sequencer pass failed; retrying on the next tick');
      },
    );
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
