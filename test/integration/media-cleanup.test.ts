import t from 'tap';
import { buffer } from 'node:stream/consumers';
import { and, eq, sql } from 'drizzle-orm';
import { listings, mediaCleanup } from '../../src/db/schema.js';
import { createMediaStore } from '../../src/media/create-media-store.js';
import { sweepMediaFiles } from '../../src/media/media-cleanup.js';
import { contentKey, mediaFileName, parseMediaFileName } from '../../src/media/media-store.js';
import { jpegWithComment } from '../fixtures/crafted-images.js';
import { build, config, eventually, listingInput, runId } from '../helper.js';

// No lock timeout: the request under test waits on a lock the test holds while it looks around.
const { app, deps, partner } = await build(t, { config: { DB_LOCK_TIMEOUT_MS: 0 } });
const { db } = deps.database;
const store = createMediaStore(config);
const owner = await partner();
const other = await partner();
const HOUR = 3600 * 1000;

const createListing = async (auth: { authorization: string }): Promise<number> => Number((await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json().id);
const upload = (auth: { authorization: string }, listingId: number, bytes: Buffer) =>
  app.inject({ method: 'POST', url: `/de/listings/${listingId}/images`, headers: auth, payload: { type: 'photo', caption: '', base64: bytes.toString('base64') } });
const fileOf = (bytes: Buffer) => mediaFileName(contentKey(bytes), 'jpg');
const fetchPublic = (file: string) => app.inject({ url: `/media/${file}` });
/** What the store holds under `file`, or undefined. */
const stored = async (file: string) => {
  const opened = await store.open(file);
  return opened && buffer(opened.body);
};
const candidate = (file: string) => {
  const { key, ext } = parseMediaFileName(file);
  return and(eq(mediaCleanup.key, key), eq(mediaCleanup.ext, ext));
};
/** Moves the file's clean-up mark a day back, past any grace period. */
const expire = (file: string) => db.update(mediaCleanup).set({ since: sql`now() - interval '1 day'` }).where(candidate(file));
const sweep = () => sweepMediaFiles({ db, store, graceMs: HOUR });

t.test('clean-up removes a file no image refers to, only after the grace period', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} grace`);
  const file = fileOf(bytes);
  const listingId = await createListing(owner.auth);
  const created = await upload(owner.auth, listingId, bytes);
  t.equal(created.statusCode, 201);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${listingId}/images/${created.json().id}`, headers: owner.auth })).statusCode, 204);
  t.equal((await fetchPublic(file)).statusCode, 404, 'not served once its image is gone');
  await sweep();
  t.same(await stored(file), bytes, 'kept during the grace period');
  await expire(file);
  await sweep();
  t.equal(await stored(file), undefined, 'removed after it');
  t.same(await db.select().from(mediaCleanup).where(candidate(file)), [], 'the candidate is done');
});

t.test('an upload refused before its transaction (403) stores nothing', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} refused early`);
  const listingId = await createListing(owner.auth);
  t.equal((await upload(other.auth, listingId, bytes)).statusCode, 403);
  t.equal(await stored(fileOf(bytes)), undefined, 'no file parked on a listing the caller may not change');
});

t.test('an upload whose transaction fails (403) leaves its file unreferenced, and clean-up removes it', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} refused`);
  const file = fileOf(bytes);
  const listingId = await createListing(owner.auth);
  const [{ claimedBy }] = (await db.select({ claimedBy: listings.claimedBy }).from(listings).where(eq(listings.id, listingId))) as [{ claimedBy: number }];
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${listingId}/claim`, headers: owner.auth })).statusCode, 204);

  // The other partner's upload passes the early check (unclaimed) and writes its file; the owner's
  // claim, held open meanwhile, commits before the upload's transaction gets the listing.
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const claim = db.transaction(async (tx) => {
    await tx.update(listings).set({ claimedBy }).where(eq(listings.id, listingId));
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await isLocked;
  const refused = upload(other.auth, listingId, bytes);
  try {
    await eventually(async () => ((await stored(file)) ? true : undefined), 10_000, 'the upload to write its file');
  } finally {
    release();
    await claim;
  }
  t.equal((await refused).statusCode, 403);
  t.same(await stored(file), bytes, 'written before the transaction, no listing lock held meanwhile');
  t.equal((await fetchPublic(file)).statusCode, 404, 'no image refers to it: never served');
  t.equal((await db.select().from(mediaCleanup).where(candidate(file))).length, 1, 'a clean-up candidate');
  await expire(file);
  await sweep();
  t.equal(await stored(file), undefined);
});

t.test('a file shared by two listings survives deleting one, and goes after deleting both', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} shared`);
  const file = fileOf(bytes);
  const mine = await createListing(owner.auth);
  const theirs = await createListing(other.auth);
  t.equal((await upload(owner.auth, mine, bytes)).statusCode, 201);
  t.equal((await upload(other.auth, theirs, bytes)).statusCode, 201);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${mine}`, headers: owner.auth })).statusCode, 204);
  await expire(file);
  await sweep();
  const served = await fetchPublic(file);
  t.equal(served.statusCode, 200, 'still served for the live listing');
  t.same(served.rawPayload, bytes);
  t.equal(served.headers['content-length'], String(bytes.length));
  t.equal(served.headers['content-type'], 'image/jpeg');
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${theirs}`, headers: other.auth })).statusCode, 204);
  t.equal((await fetchPublic(file)).statusCode, 404);
  t.same(await stored(file), bytes, 'deleting the listing marks the file, the clean-up removes it later');
  await expire(file);
  await sweep();
  t.equal(await stored(file), undefined);
});

t.test('an identical upload that has written the file but not committed keeps it through a clean-up pass', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} race`);
  const file = fileOf(bytes);
  const listingId = await createListing(owner.auth);
  const first = await upload(owner.auth, listingId, bytes);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${listingId}/images/${first.json().id}`, headers: owner.auth })).statusCode, 204);
  await expire(file); // unreferenced and expired: the next pass would remove it

  // Holding the listing's row lock stops the second upload after its file write, before its
  // image row exists: the window in which a clean-up cannot see that the file is wanted.
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = db.transaction(async (tx) => {
    await tx.select({ id: listings.id }).from(listings).where(eq(listings.id, listingId)).for('update');
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await isLocked;
  const second = upload(owner.auth, listingId, bytes);
  try {
    await eventually(
      async () => {
        const { rows } = await deps.database.pool.query(`select 1 from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'
          and query like '%from "listings"%for update%'`);
        return rows.length > 0 ? true : undefined;
      },
      10_000,
      'the second upload to wait for the listing lock',
    );
    await sweep();
  } finally {
    release();
    await holder;
  }
  const res = await second;
  t.equal(res.statusCode, 201);
  const served = await fetchPublic(file);
  t.equal(served.statusCode, 200, 'the committed image is served');
  t.same(served.rawPayload, bytes);
});

t.test('/media opens the file as a stream, never as a whole buffer', async (t) => {
  const bytes = jpegWithComment(`cleanup ${runId} stream`);
  const listingId = await createListing(owner.auth);
  t.equal((await upload(owner.auth, listingId, bytes)).statusCode, 201);
  const opened = await deps.images.file(fileOf(bytes));
  t.ok(opened, 'served');
  t.equal(typeof opened!.body.pipe, 'function', 'a readable stream');
  t.equal(opened!.size, bytes.length);
  t.equal(opened!.contentType, 'image/jpeg');
  opened!.body.destroy();
});
