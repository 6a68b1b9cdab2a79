import { TransactionRollbackError } from 'drizzle-orm';
import t from 'tap';
import { startRelay } from '../../indexer/relay.js';
import type { Db, DbOrTx } from '../../src/db/client.js';
import { outbox } from '../../src/db/schema.js';
import type { SyncListingJob } from '../../src/outbox/jobs.js';
import { findStrandedEvents } from '../../src/outbox/outbox-dal.js';
import { build, eventually, logger } from '../helper.js';

const { deps } = await build(t);

// Listing ids no listing has: the events below stand for writes whose job went missing.
const OLD = 9_000_000_000_001;
const RECENT = 9_000_000_000_002;
const YOUNG = 9_000_000_000_003;
const LATE = 9_000_000_000_004;
const ours = (jobs: SyncListingJob[]) => jobs.filter((j) => j.listingId >= OLD && j.listingId <= LATE).sort((a, b) => a.listingId - b.listingId);
const ago = (ms: number) => new Date(Date.now() - ms);
const event = (listingId: number, version: number, createdAt: Date) => ({ listingId, country: 'de', version, createdAt });

/**
 * Runs `work` in a transaction that is rolled back at its end: the events it writes stay invisible
 * to the relays and indexers that other test files run on this database, which would take them.
 */
async function unseenByOthers(work: (tx: DbOrTx) => Promise<void>): Promise<void> {
  try {
    await deps.database.db.transaction(async (tx) => {
      await work(tx);
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
}

t.test('a pass bounded to recent events leaves older ones to a pass over all', async (t) => {
  await unseenByOthers(async (tx) => {
    await tx.insert(outbox).values([
      event(OLD, 1, ago(10 * 60_000)),
      event(RECENT, 1, ago(30_000)),
      event(RECENT, 2, ago(20_000)),
      event(YOUNG, 1, new Date()), // within the grace: its own enqueue may still be on its way
    ]);
    t.same(
      ours(await findStrandedEvents(tx, { olderThanMs: 2000, newerThanMs: 60_000 }, 100_000)),
      [{ listingId: RECENT, country: 'de', version: 2 }],
      'the newest pending version of each listing, written in the window',
    );
    t.same(ours(await findStrandedEvents(tx, { olderThanMs: 2000 }, 100_000)), [
      { listingId: OLD, country: 'de', version: 1 },
      { listingId: RECENT, country: 'de', version: 2 },
    ]);
  });
});

t.test('the relay looks at all events in its first pass and then once every recentMs, at recent ones in between', async (t) => {
  await unseenByOthers(async (tx) => {
    const relayed: SyncListingJob[] = [];
    const recentMs = 2000;
    await tx.insert(outbox).values(event(OLD, 1, ago(10 * 60_000)));
    // Written once the first pass has relayed OLD, inside that pass's enqueue: the relay's passes
    // and these inserts share the transaction's one connection, and a pass waits for its enqueue.
    let afterFirstPass: (() => Promise<unknown>) | undefined = () => tx.insert(outbox).values([event(LATE, 1, ago(10 * 60_000)), event(RECENT, 1, new Date())]);
    const started = Date.now();
    const relay = startRelay({
      db: tx as unknown as Db,
      queue: {
        enqueue: async (jobs) => {
          relayed.push(...ours(jobs));
          if (!afterFirstPass || !relayed.some((j) => j.listingId === OLD)) return;
          const write = afterFirstPass;
          afterFirstPass = undefined;
          await write();
        },
      },
      logger,
      graceMs: 0,
      batchSize: 100_000,
      intervalMs: 50,
      recentMs,
    });
    try {
      await eventually(async () => relayed.some((j) => j.listingId === RECENT) || undefined, recentMs, 'a recent pass to relay a new event');
      t.ok(
        relayed.some((j) => j.listingId === OLD),
        'the first pass relayed an event of ten minutes ago',
      );
      // Timers only run late: before recentMs has passed since the start, no second full pass ran.
      if (Date.now() - started < recentMs)
        t.notOk(
          relayed.some((j) => j.listingId === LATE),
          'recent passes leave an old event alone',
        );
      else t.comment('the machine was too slow to check that recent passes leave an old event alone');
      await eventually(async () => relayed.some((j) => j.listingId === LATE) || undefined, 3 * recentMs, 'the next full pass to relay it');
      t.ok(Date.now() - started >= recentMs, 'which came recentMs after the first');
    } finally {
      await relay.stop();
    }
  });
});
