// The consistent export (docs/contract.md §16): every listing of a scope, one JSON a line, read in
// ONE snapshot, ending with the change-feed cursor that continues it. Inside the snapshot the
// feed's end is the highest position it sees; every change it does not see takes a higher
// position (the sequencer numbers after commit, src/changes/changes-dal.ts), so export + feed
// from that cursor miss nothing. Memory stays constant: listings are read in keyset batches and
// each batch is written out before the next is read, as fast as the client takes them.
import { Readable } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { feedWindow } from '../changes/changes-dal.js';
import { sequenceIfPending } from '../changes/changes-service.js';
import { encodeCursor } from '../changes/feed-cursor.js';
import type { Db, DbOrTx } from '../db/client.js';
import * as schema from '../db/schema.js';
import type { Caller } from '../partners/partners-service.js';
import { toListing, type Listing, type PublicUrls } from './listing-view.js';
import { liveListingIdsAfter, loadListingsForView } from './listing-reads-dal.js';
import type { ListingForView } from './listing-records.js';

export type ExportScope = 'all' | 'claimed';

/** Listings per query: each batch is one short statement, whatever the size of the export. */
const BATCH = 500;

interface Deps {
  db: Db;
  pool: Pick<pg.Pool, 'connect'>;
  urls: PublicUrls;
}

/**
 * The listing as GET renders it; in scope `all` without `contact` unless the caller claims the
 * listing (a bulk copy of every contact person is not what a partner needs). Admins get it all.
 */
function exportedListing(record: ListingForView, caller: Caller, urls: PublicUrls): Partial<Listing> {
  const listing = toListing(record, urls);
  if (caller.role === 'admin' || record.row.claimedBy === caller.partnerId) return listing;
  const { contact: _withheld, ...withoutContact } = listing;
  return withoutContact;
}

export function createExportService({ db, pool, urls }: Deps) {
  async function* lines(tx: DbOrTx, caller: Caller, country: string, scope: ExportScope, feedEnd: number): AsyncGenerator<string> {
    const claimedBy = scope === 'claimed' ? caller.partnerId : undefined;
    let count = 0;
    for (let last = 0; ; ) {
      const ids = await liveListingIdsAfter(tx, country, last, BATCH, claimedBy);
      if (ids.length === 0) break;
      const records = await loadListingsForView(tx, ids);
      // One chunk a batch: few writes, and at most about one batch in memory at a time.
      yield ids.map((id) => `${JSON.stringify(exportedListing(records.get(id)!, caller, urls))}\n`).join('');
      count += ids.length;
      last = ids.at(-1)!;
    }
    yield `${JSON.stringify({ end: { count, changes_after: encodeCursor(feedEnd) } })}\n`;
  }

  return {
    /**
     * Opens the snapshot and returns the export's body. Everything that can fail before the first
     * byte (the database) fails here, as an ordinary error answer; a failure
     * later ends the body without its end line. The connection goes back to the pool when the body
     * ends, fails or is abandoned by the client.
     */
    async open(caller: Caller, country: string, scope: ExportScope): Promise<Readable> {
      let client: pg.PoolClient | undefined;
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        if (!client) return;
        try {
          await client.query('rollback');
          client.release();
        } catch (err) {
          client.release(err as Error); // a broken connection leaves the pool
        }
      };
      try {
        // Changes committed just now get their positions first, so fewer of them come back in the feed.
        await sequenceIfPending(db);
        client = await pool.connect();
        // Between two batches the transaction idles while the client reads the last one, which on a
        // slow link can take longer than DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: that limit is lifted for
        // this transaction. A client that stops reading is cut off by the socket's idle timeout
        // (HTTP_IDLE_TIMEOUT_MS) instead, which ends the transaction (close, below). One round trip.
        await client.query('begin isolation level repeatable read, read only; set local idle_in_transaction_session_timeout = 0');
        const tx = drizzle(client, { schema });
        const { end } = await feedWindow(tx);
        const body = Readable.from(lines(tx, caller, country, scope, end), { objectMode: false });
        // 'close' follows the end, an error and the client going away alike; also when the body was
        // never read, where the generator's own clean-up would never run.
        body.once('close', () => void close());
        return body;
      } catch (err) {
        await close();
        throw err;
      }
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
