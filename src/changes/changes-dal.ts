// Every SQL statement on the change feed's table (docs/contract.md §14). Writers insert rows
// without a position; the sequencer numbers committed rows afterwards, so feed positions follow
// commit order, not the order in which transactions began.
import { and, asc, eq, gt, gte, isNotNull, max, min, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { preparedStatement } from '../db/prepared-statement.js';
import { changeFeedPurges, listingChanges, listingHistory, outbox } from '../db/schema.js';
import type { ChangeKind } from './change-kinds.js';
import type { WriteChannel } from './write-channels.js';

export type ChangeRow = typeof listingChanges.$inferSelect & { seq: number };

/** One change of a listing as its writer records it (docs/contract.md §14). */
export interface RecordedChange {
  listingId: number;
  country: string;
  kind: ChangeKind;
  /** The listing's version after the change. */
  version: number;
  /** Who claims the listing after the change; for `unclaimed`, who claimed it before. */
  claimedBy: number | null;
  /** Set when only this partner (and admins) may learn of the change: its own review. */
  visibleTo?: number | null;
  /** The names of the Listing fields the change touched (docs/contract.md §21). */
  fields: readonly string[];
}

/** What a change that moved the listing to its next version adds: the version's history row (docs/contract.md §21). */
export interface RecordedVersion {
  /** The partner whose key made the change. */
  actorId: number | null;
  channel: WriteChannel;
  /** The fields the version changed, with their values before it as GET showed them. */
  before: Record<string, unknown>;
}

type ChangeValues = Required<Pick<typeof listingChanges.$inferInsert, 'listingId' | 'country' | 'kind' | 'version' | 'claimedBy' | 'visibleTo' | 'fields'>>;
type VersionValues = ChangeValues & RecordedVersion;

const changeColumns = {
  listingId: sql.placeholder('listingId'),
  country: sql.placeholder('country'),
  kind: sql.placeholder('kind'),
  version: sql.placeholder('version'),
  claimedBy: sql.placeholder('claimedBy'),
  visibleTo: sql.placeholder('visibleTo'),
  fields: sql.placeholder('fields'),
};

// Both statements prepared (src/db/prepared-statement.ts): every write of a listing runs one.
const insertChange = preparedStatement<ChangeValues>('record_change', (db) => db.insert(listingChanges).values(changeColumns));
const insertVersion = preparedStatement<VersionValues>('record_version', (db) => {
  const indexEvent = db.$with('index_event').as(
    db.insert(outbox).values({
      listingId: changeColumns.listingId,
      country: changeColumns.country,
      version: changeColumns.version,
    }),
  );
  const history = db.$with('history').as(
    db.insert(listingHistory).values({
      listingId: changeColumns.listingId,
      version: changeColumns.version,
      kind: changeColumns.kind,
      actorId: sql.placeholder('actorId'),
      channel: sql.placeholder('channel'),
      before: sql.placeholder('before'),
    }),
  );
  return db.with(indexEvent, history).insert(listingChanges).values(changeColumns);
});

/**
 * Records `change` in the writing transaction. When the change moved the listing to its next
 * version (`moved`), the same statement (data-modifying CTEs) also writes the outbox event of that
 * version and the version's history row: one round trip, not three, on every write that moves a
 * listing's version.
 */
export async function recordChange(tx: DbOrTx, change: RecordedChange, moved?: RecordedVersion): Promise<void> {
  const row = {
    listingId: change.listingId,
    country: change.country,
    kind: change.kind,
    version: change.version,
    claimedBy: change.claimedBy,
    visibleTo: change.visibleTo ?? null,
    fields: [...change.fields],
  };
  if (moved) await insertVersion(tx, { ...row, actorId: moved.actorId, channel: moved.channel, before: moved.before });
  else await insertChange(tx, row);
}

/**
 * The data-modifying CTEs that record the `created` change (touching `fields`, every field of the
 * Listing), the outbox event and the first history row of each listing the CTE `l` returns (its
 * id, country, version, created_by and claimed_by), the channel given by the placeholder `channel`:
 * what recordChange writes for a create, as part of the create's own statement
 * (insertCreatedListing), so that a create is one round trip.
 */
export function createdChangeInserts(fields: readonly string[]): SQL {
  const created = sql`${'created' satisfies ChangeKind}`;
  // Constant names of the Listing's fields, written into the statement's text.
  const names = sql.raw(`'{${fields.join(',')}}'::text[]`);
  return sql`
    created_change as (insert into ${listingChanges} (listing_id, country, kind, version, claimed_by, fields)
      select id, country, ${created}, version, claimed_by, ${names} from l),
    created_index_event as (insert into ${outbox} (listing_id, country, version) select id, country, version from l),
    created_history as (insert into ${listingHistory} (listing_id, version, kind, actor_id, channel)
      select id, version, ${created}, created_by, ${sql.placeholder('channel')}::text from l)`;
}

/** Any fixed 64-bit number: the advisory lock that lets one sequencer run at a time, cluster-wide. */
const SEQUENCER_LOCK = 7_241_016_001;

/**
 * Gives the next feed positions to up to `limit` committed, unnumbered changes, in the order they
 * were written, and returns how many it numbered. Positions continue from the highest one given,
 * under an advisory lock held to commit: a later pass starts after this one's commit, so it sees
 * these positions and only rows committed meanwhile, which take higher ones. A reader following
 * `seq` therefore never finds a lower position appearing behind it. When another pass holds the
 * lock this one returns 0 at once: that pass numbers the same rows.
 */
export async function sequencePendingChanges(db: Db, limit = 5000): Promise<number> {
  return db.transaction(async (tx) => {
    const {
      rows: [lock],
    } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SEQUENCER_LOCK}) as locked`);
    if (!lock!.locked) return 0;
    // A fresh statement, so its snapshot sees the previous pass's commit (READ COMMITTED).
    const { rowCount } = await tx.execute(sql`
      with last as (select coalesce(max(seq), 0) as seq from ${listingChanges}),
           pending as (
             select id, row_number() over (order by id) as n from ${listingChanges}
             where seq is null order by id limit ${limit})
      update ${listingChanges} c set seq = last.seq + pending.n
      from pending, last where c.id = pending.id`);
    return rowCount ?? 0;
  });
}

/** Up to `limit` numbered changes after position `afterSeq`, in feed order. */
export function readChangesAfter(db: DbOrTx, afterSeq: number, limit: number): Promise<ChangeRow[]> {
  return db
    .select()
    .from(listingChanges)
    .where(and(isNotNull(listingChanges.seq), gt(listingChanges.seq, afterSeq)))
    .orderBy(asc(listingChanges.seq))
    .limit(limit) as Promise<ChangeRow[]>;
}

/**
 * Up to `limit` numbered changes of `country` after position `afterSeq`, in feed order, whoever
 * may see them: the reader filters, so that its cursor still moves past the ones it skips.
 */
export function readCountryChangesAfter(db: DbOrTx, country: string, afterSeq: number, limit: number): Promise<ChangeRow[]> {
  return db
    .select()
    .from(listingChanges)
    .where(and(eq(listingChanges.country, country), gt(listingChanges.seq, afterSeq)))
    .orderBy(asc(listingChanges.seq))
    .limit(limit) as Promise<ChangeRow[]>;
}

/** Whether a committed change still waits for its position: the feed's readers sequence only then. */
export async function hasPendingChanges(db: DbOrTx): Promise<boolean> {
  const {
    rows: [row],
  } = await db.execute<{ pending: boolean }>(sql`select exists (select 1 from ${listingChanges} where seq is null) as pending`);
  return row!.pending;
}

/**
 * The kept window of the feed: positions above `purgedThrough` are all still there, up to `end`,
 * the newest. Positions are dense and purges remove the oldest ones first (purgeChangesThrough),
 * so the highest purged position is the lowest kept one minus one; 0 and 0 for an empty feed.
 */
export async function feedWindow(db: DbOrTx): Promise<{ purgedThrough: number; end: number }> {
  const [row] = await db.select({ first: min(listingChanges.seq), last: max(listingChanges.seq) }).from(listingChanges);
  return { purgedThrough: row?.first == null ? 0 : row.first - 1, end: row?.last ?? 0 };
}

/**
 * The highest position whose change, and every change before it, was written before `cutoff`:
 * what retention may purge. It stops below the first change younger than `cutoff` (so every
 * change is kept at least that long) and below the newest one, which the sequencer numbers on from.
 */
export async function purgeablePosition(db: DbOrTx, cutoff: Date): Promise<number> {
  const { purgedThrough, end } = await feedWindow(db);
  // Walks the positions upwards from the oldest: cheap, as everything before the first young
  // change is what the purge then removes.
  const [young] = await db
    .select({ seq: listingChanges.seq })
    .from(listingChanges)
    .where(and(isNotNull(listingChanges.seq), gte(listingChanges.at, cutoff)))
    .orderBy(asc(listingChanges.seq))
    .limit(1);
  const limit = young?.seq == null ? end : young.seq - 1;
  return Math.max(purgedThrough, Math.min(limit, end - 1));
}

/**
 * Deletes up to `limit` changes at positions up to `through`, the oldest first, and returns how
 * many went; each country's highest purged position is remembered in the same statement
 * (purgedThroughOf). Oldest first, so that the kept positions stay one unbroken run even when a
 * purge stops half-way: feedWindow relies on it.
 */
export async function purgeChangesThrough(db: DbOrTx, through: number, limit: number): Promise<number> {
  const {
    rows: [row],
  } = await db.execute<{ n: number }>(sql`
    with doomed as (
           select id from ${listingChanges} where seq <= ${through} order by seq limit ${limit}),
         deleted as (
           delete from ${listingChanges} c using doomed where c.id = doomed.id returning c.country, c.seq),
         marks as (
           insert into ${changeFeedPurges} (country, through)
           select country, max(seq) from deleted group by country
           on conflict (country) do update set through = greatest(${changeFeedPurges.through}, excluded.through))
    select count(*)::int as n from deleted`);
  return row!.n;
}

/** The highest purged position of a change of `country`, 0 when none was purged. */
export async function purgedThroughOf(db: DbOrTx, country: string): Promise<number> {
  const [row] = await db.select({ through: changeFeedPurges.through }).from(changeFeedPurges).where(eq(changeFeedPurges.country, country));
  return row?.through ?? 0;
}
