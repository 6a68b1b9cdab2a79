// A write whose transaction is open while a reindex copies reaches the new index, however long
// the transaction ran; a catch-up that fails leaves its events pending for the relay.
import { and, eq } from 'drizzle-orm';
import t from 'tap';
import { createListingSync } from '../../indexer/listing-sync.js';
import { reindexCountry } from '../../indexer/reindex.js';
import { relayStrandedEvents } from '../../indexer/relay.js';
import { indexLayout, publicUrls } from '../../src/platform/config.js';
import { listings, outbox } from '../../src/db/schema.js';
import type { SyncListingJob } from '../../src/outbox/jobs.js';
import { build, config, eventually, indexedDocument, listingInput, logger, names, runId } from '../helper.js';

const country = 'at';
// Published events are dropped: no worker runs here, so a write reaches an index only through
// the syncs this test makes (standing in for the worker) and through the reindex itself. The
// transactions below stay idle on purpose for the length of a reindex: no idle timeout ends them.
const { deps, partner } = await build(t, { queue: { enqueue: async () => {} }, config: { DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: 0 } });
const { db } = deps.database;
const sync = createListingSync({ db, opensearch: deps.opensearch, names, urls: publicUrls(config), logger });
const reindexDeps = { db, opensearch: deps.opensearch, names, layout: indexLayout(config), urls: publicUrls(config), sync, logger };
const owner = await partner();
const caller = { partnerId: owner.id, name: 'owner', role: 'partner' as const };

/** A new listing (version 1), indexed. */
async function indexedListing(name: string): Promise<number> {
  const created = await deps.listings.create(caller, country, listingInput({ name, place: 'Wien', zip: '1010' }));
  const id = Number(created.id);
  await sync({ listingId: id, country, version: 1 });
  return id;
}

/**
 * Renames listing `id` through the service's write path (row, version bump and outbox row in one
 * transaction), holding the transaction open after its first statement until `commit()`.
 */
async function openRename(id: number, name: string): Promise<{ commit(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let begun!: () => void;
  const hasBegun = new Promise<void>((resolve) => {
    begun = resolve;
  });
  const done = deps.listingWrites.changeListing(caller, country, id, 'forbidden', async (tx) => {
    await tx.update(listings).set({ name }).where(eq(listings.id, id));
    begun();
    await released;
    return { result: undefined, change: 'updated' as const };
  });
  await Promise.race([hasBegun, done]);
  return {
    async commit() {
      release();
      await done;
    },
  };
}

t.test('writes whose transactions began long before a reindex and committed during it are in the new index', async (t) => {
  const early = await indexedListing(`Früh ${runId}`);
  const late = await indexedListing(`Spät ${runId}`);
  const beforeSwap = await openRename(early, `Früh umbenannt ${runId}`);
  const afterSwap = await openRename(late, `Spät umbenannt ${runId}`);
  // Both transactions started well before the reindex: their outbox rows' created_at (the
  // transaction's start) lies before it, beyond any margin a catch-up by time could allow.
  await new Promise((resolve) => setTimeout(resolve, 6000));

  const result = await reindexCountry(reindexDeps, country, {
    onPhase: async (phase) => {
      if (phase === 'copied') {
        // Committed after the copy read the listing; the worker indexes it into the index the
        // alias still names (the old one) and marks its event done.
        await beforeSwap.commit();
        t.equal(await sync({ listingId: early, country, version: 2 }), 'indexed', 'indexed into the old index');
      } else {
        // Committed after the swap, its job not yet run.
        await afterSwap.commit();
      }
    },
  });

  const aliased = Object.keys((await deps.opensearch.indices.getAlias({ name: names.listingsAlias(country) })).body as object);
  t.same(aliased, [result.index], 'the alias names the new index');
  for (const [id, name] of [
    [early, `Früh umbenannt ${runId}`],
    [late, `Spät umbenannt ${runId}`],
  ] as const) {
    const doc = await indexedDocument(deps, country, id);
    t.equal(doc?.version, 2, `listing ${id} is in the new index at its committed version`);
    t.equal(doc?.source.name, name);
  }
  t.ok(result.caughtUp >= 2, `${result.caughtUp} listings caught up`);
});

t.test('a catch-up that fails leaves the events pending, and the relay delivers them into the new index', async (t) => {
  const id = await indexedListing(`Abbruch ${runId}`);
  const write = await openRename(id, `Abbruch umbenannt ${runId}`);
  const failingSync: typeof sync = async () => {
    throw new Error('OpenSearch refused the catch-up');
  };

  await t.rejects(
    reindexCountry({ ...reindexDeps, sync: failingSync }, country, {
      onPhase: async (phase) => {
        if (phase !== 'copied') return;
        await write.commit();
        await sync({ listingId: id, country, version: 2 }); // the worker, into the old index
      },
    }),
    /catch-up failed for 1 of/,
  );

  // The failed catch-up reopened the event; a relay delivers it. Other test files run relays on the
  // same database, so one of theirs may get there first: what must hold is that the write reaches
  // the new index (without the reopening it never would: the worker put it into the old one).
  await eventually(
    async () => {
      const relayed: SyncListingJob[] = [];
      await relayStrandedEvents({
        db,
        queue: {
          enqueue: async (jobs) => {
            relayed.push(...jobs);
          },
        },
        logger,
        graceMs: 0,
        batchSize: 100_000,
      });
      for (const job of relayed.filter((j) => j.listingId === id)) await sync(job); // the worker runs the relayed job
      return (await indexedDocument(deps, country, id))?.version === 2 ? true : undefined;
    },
    20_000,
    'the reopened event to reach the new index',
  );
  const events = await db
    .select({ processedAt: outbox.processedAt })
    .from(outbox)
    .where(and(eq(outbox.listingId, id), eq(outbox.version, 2)));
  t.equal(events.length, 1);
  t.not(events[0]!.processedAt, null, 'and its event is done');
});
