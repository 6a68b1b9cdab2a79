// The change feed (docs/contract.md §14): one change per write that changed something, review
// changes only for who may see them, cursors, retention, and the ordering guarantee: a client
// that follows `next` receives every change exactly once, also when transactions commit in
// another order than they began.
import { readFileSync } from 'node:fs';
import { eq, inArray, lte } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import t from 'tap';
import { purgeExpired } from '../../indexer/housekeeping.js';
import { feedWindow, recordChange } from '../../src/changes/changes-dal.js';
import { decodeCursor, encodeCursor } from '../../src/changes/feed-cursor.js';
import * as schema from '../../src/db/schema.js';
import { listingChanges, listings } from '../../src/db/schema.js';
import { build, listingInput, runId } from '../helper.js';

const country = 'at';
const { app, deps, partner } = await build(t);
const { db, pool } = deps.database;
const owner = await partner();
const other = await partner();
const admin = await partner('admin');

type Auth = { authorization: string };
interface Entry {
  cursor: string;
  id: string;
  kind: string;
  version: number;
  at: string;
  fields: string[];
}
interface Page {
  changes: Entry[];
  next: string;
  hasMore: boolean;
}

const tinyPng = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
let n = 0;
const input = (name = `Feed ${runId} ${++n}`) => listingInput({ name, place: 'Wien', zip: '1010' });
const review = () => ({ source_id: `feed-${runId}-${++n}`, reviewer: 'R', reviewed: '', title: '', text: 'gut', rating: 4, date_time: '2026-05-01T12:00:00+02:00' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const feed = (auth: Auth, query: Record<string, string>) => app.inject({ url: `/${country}/changes?${new URLSearchParams(query)}`, headers: auth });

async function page(auth: Auth, after: string, limit = 1000): Promise<Page> {
  const res = await feed(auth, { after, limit: String(limit) });
  if (res.statusCode !== 200) throw new Error(`GET /changes answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** The cursor of the current end of the feed. */
const endOfFeed = async (auth: Auth) => (await page(auth, 'now')).next;

/** Every change after `after`, following `next` until no more are waiting. */
async function readAll(auth: Auth, after: string): Promise<{ entries: Entry[]; next: string }> {
  const entries: Entry[] = [];
  for (let cursor = after; ; ) {
    const { changes, next, hasMore } = await page(auth, cursor, 100);
    entries.push(...changes);
    cursor = next;
    if (!hasMore) return { entries, next };
  }
}

async function create(auth: Auth): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/${country}/listings`, headers: auth, payload: input() });
  if (res.statusCode !== 201) throw new Error(`POST answered ${res.statusCode}: ${res.body}`);
  return res.json().id;
}

t.test('each workflow records one change of its kind; a repeated call that changes nothing records nothing', async (t) => {
  const start = await endOfFeed(admin.auth);
  const id = await create(owner.auth);
  const base = `/${country}/listings/${id}`;
  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth, payload?: object, expected = [200, 201, 204]) => {
    const res = await app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    t.ok(expected.includes(res.statusCode), `${method} ${url.replace(base, '')}: ${res.statusCode}`);
    return res;
  };
  await call('PUT', base, owner.auth, input());
  await call('DELETE', `${base}/claim`, owner.auth);
  await call('DELETE', `${base}/claim`, owner.auth); // already unclaimed
  await call('PUT', `${base}/claim`, other.auth);
  await call('PUT', `${base}/claim`, other.auth); // already claimed by the caller
  await call('PUT', `${base}/suppress`, other.auth);
  await call('PUT', `${base}/suppress`, other.auth); // already suppressed
  await call('DELETE', `${base}/suppress`, other.auth);
  await call('PUT', `${base}/offer`, other.auth, { message: 'Zwei für eins', url: 'https://example.com/angebot' });
  await call('DELETE', `${base}/offer`, other.auth);
  await call('DELETE', `${base}/offer`, other.auth); // no offer left
  const image = (await call('POST', `${base}/images`, other.auth, { type: 'photo', caption: 'vorne', base64: tinyPng })).json();
  await call('PUT', `${base}/images/${image.id}`, other.auth, { caption: 'hinten' });
  await call('DELETE', `${base}/images/${image.id}`, other.auth);
  const own = (await call('POST', `${base}/reviews`, owner.auth, review())).json(); // a partner review: private to owner
  await call('POST', `${base}/reviews`, admin.auth, review()); // a website review: public
  await call('DELETE', `${base}/reviews/${own.id}`, owner.auth);
  await call('DELETE', base, other.auth);
  await call('DELETE', base, other.auth, undefined, [404]); // gone already

  const mine = async (auth: Auth) => (await readAll(auth, start)).entries.filter((e) => e.id === id).map((e) => [e.kind, e.version]);
  const everything = [
    ['created', 1],
    ['updated', 2],
    ['unclaimed', 3],
    ['claimed', 4],
    ['suppressed', 5],
    ['unsuppressed', 6],
    ['offer_set', 7],
    ['offer_deleted', 8], // offers move the version: the index says whether there is one
    ['image_added', 9],
    ['image_changed', 10],
    ['image_deleted', 11],
    ['review_added', 11], // owner's own review: private, version unchanged
    ['review_added', 12], // the website review
    ['review_deleted', 12], // owner's review again
    ['deleted', 13],
  ];
  t.same(await mine(admin.auth), everything, 'an admin sees every change, each once, with the version after it');
  t.same(await mine(owner.auth), everything, 'the author of the partner review sees its changes');
  t.same(
    await mine(other.auth),
    everything.filter((_, i) => i !== 11 && i !== 13),
    'another partner sees neither change of that review',
  );

  const rows = await db
    .select()
    .from(listingChanges)
    .where(eq(listingChanges.listingId, Number(id)))
    .orderBy(listingChanges.seq);
  const claimant = (kind: string) => rows.find((r) => r.kind === kind)?.claimedBy;
  t.equal(claimant('created'), owner.id, 'created: claimed by its creator');
  t.equal(claimant('unclaimed'), owner.id, 'unclaimed: the claimant before');
  t.equal(claimant('claimed'), other.id, 'claimed: the new claimant');
  t.same(
    rows.filter((r) => r.visibleTo !== null).map((r) => [r.kind, r.visibleTo]),
    [
      ['review_added', owner.id],
      ['review_deleted', owner.id],
    ],
  );

  const [entry] = (await readAll(owner.auth, start)).entries.filter((e) => e.id === id);
  t.match(entry, { cursor: /^[A-Za-z0-9_-]+$/, id, kind: 'created', version: 1 });
  t.match(entry!.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'at: ISO 8601 UTC');
});

t.test('each change names the Listing fields it touched; an offer moves only the version, a private review touches none', async (t) => {
  const start = await endOfFeed(admin.auth);
  const id = await create(owner.auth);
  const base = `/${country}/listings/${id}`;
  const send = (method: 'PATCH' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
  await send('PATCH', base, { name: `Feed ${runId} umbenannt`, keywords: [] });
  await send('PUT', `${base}/suppress`);
  await send('PUT', `${base}/offer`, { message: 'Angebot', url: 'https://example.com/angebot' });
  await send('POST', `${base}/images`, { type: 'photo', caption: 'vorne', base64: tinyPng });
  await send('POST', `${base}/reviews`, review());
  const shown = (await app.inject({ url: base, headers: owner.auth })).json();
  await send('DELETE', base);
  const entries = (await readAll(owner.auth, start)).entries.filter((e) => e.id === id);
  t.same(
    entries.slice(1).map((e) => [e.kind, e.fields]),
    [
      ['updated', ['name', 'keywords', 'version']],
      ['suppressed', ['suppressed', 'version']],
      ['offer_set', ['version']],
      ['image_added', ['images', 'version']],
      ['review_added', []],
      ['deleted', ['version']],
    ],
  );
  t.same([...entries[0]!.fields].sort(), Object.keys(shown).sort(), 'created: every field of the Listing');
});

t.test('an admin taking over a claimed listing ends the previous claim in the feed: unclaimed for the old claimant, then claimed', async (t) => {
  const start = await endOfFeed(admin.auth);
  const id = await create(owner.auth);
  const res = await app.inject({ method: 'PUT', url: `/${country}/listings/${id}/claim`, headers: admin.auth });
  t.equal(res.statusCode, 204, 'an admin takes over');
  const { entries } = await readAll(admin.auth, start);
  t.same(
    entries.filter((e) => e.id === id).map((e) => [e.kind, e.version]),
    [
      ['created', 1],
      ['unclaimed', 2],
      ['claimed', 2],
    ],
    'one write, one version: the end of the old claim, then the new one',
  );
  const rows = await db
    .select()
    .from(listingChanges)
    .where(eq(listingChanges.listingId, Number(id)))
    .orderBy(listingChanges.seq);
  t.same(
    rows.map((r) => [r.kind, r.claimedBy]),
    [
      ['created', owner.id],
      ['unclaimed', owner.id],
      ['claimed', admin.id],
    ],
    "the previous claimant's scope-claimed webhooks match the unclaimed change",
  );
});

t.test('after=now is an empty page at the end of the feed; the next change follows it; an empty page repeats its cursor', async (t) => {
  const res = await feed(owner.auth, { after: 'now' });
  t.equal(res.statusCode, 200);
  const now = res.json();
  t.same(now.changes, []);
  t.equal(now.hasMore, false);
  const id = await create(owner.auth);
  const next = await page(owner.auth, now.next);
  t.same(
    next.changes.map((e) => [e.id, e.kind]),
    [[id, 'created']],
    'a change is in the feed at once after its commit',
  );
  const empty = await page(owner.auth, next.next);
  t.same(empty.changes, []);
  t.equal(empty.next, next.next, 'an empty page gives back the cursor it was asked with');
  t.equal(empty.hasMore, false);
  t.ok(
    (await page(other.auth, now.next)).changes.some((e) => e.id === id),
    'a cursor works for any caller',
  );
});

t.test('limit pages through the feed with hasMore, each change once', async (t) => {
  const start = await endOfFeed(owner.auth);
  const ids = [await create(owner.auth), await create(owner.auth), await create(owner.auth)];
  const first = await page(owner.auth, start, 2);
  t.equal(first.changes.length, 2);
  t.equal(first.hasMore, true);
  t.equal(first.next, first.changes[1]!.cursor, 'next is the cursor of the last change on the page');
  const second = await page(owner.auth, first.next, 2);
  t.same(
    [...first.changes, ...second.changes].map((e) => e.id),
    ids,
  );
  t.equal(second.hasMore, false);
});

t.test('a malformed cursor or limit is a 400 validation error', async (t) => {
  const queries: Record<string, string>[] = [
    { after: 'garbage!' },
    { after: '12' },
    { after: Buffer.from('v1:-3').toString('base64url') },
    { limit: '0' },
    { limit: '1001' },
    { limit: 'ten' },
    { since: 'now' },
  ];
  for (const query of queries) {
    const res = await feed(owner.auth, query);
    t.equal(res.statusCode, 400, JSON.stringify(query));
    t.equal(res.json().type, 'validation');
  }
  t.match((await feed(owner.auth, { after: 'garbage!' })).json().details, [/^after: /]);
  t.equal((await app.inject({ url: `/${country}/changes` })).statusCode, 401, 'a key is required');
});

t.test('transactions that commit in another order than they began: the feed follows commit order, each change once', async (t) => {
  const id = Number(await create(owner.auth));
  const start = await endOfFeed(admin.auth);
  /** A writer's transaction held open by hand: BEGIN, its change recorded as every write records it, then COMMIT later. */
  async function openWriter(version: number) {
    const client = await pool.connect();
    let open = true;
    t.teardown(async () => {
      if (open) await client.query('rollback');
      client.release();
    });
    await client.query('begin');
    await recordChange(drizzle(client, { schema }), { listingId: id, country, kind: 'updated', version, claimedBy: owner.id, fields: [] });
    return {
      async commit() {
        await client.query('commit');
        open = false;
      },
    };
  }
  const seen: Entry[] = [];
  let cursor = start;
  const poll = async () => {
    const { changes, next } = await page(admin.auth, cursor);
    seen.push(...changes.filter((e) => e.id === String(id)));
    cursor = next;
  };

  const early = await openWriter(1001); // begins first: the lower row id
  const late = await openWriter(1002);
  await poll();
  t.same(seen, [], 'nothing uncommitted is in the feed');
  await late.commit();
  await poll();
  t.same(
    seen.map((e) => e.version),
    [1002],
    'the later transaction, committed first, is read first',
  );
  await early.commit();
  await poll();
  await poll();
  t.same(
    seen.map((e) => e.version),
    [1002, 1001],
    'the earlier transaction, committed later, still reaches a client already past the other',
  );
  t.ok(decodeCursor(seen[1]!.cursor)! > decodeCursor(seen[0]!.cursor)!, 'positions follow commit order');
});

t.test('many concurrent writes with random delays before commit: a polling consumer receives each exactly once, per listing in version order', async (t) => {
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) ids.push(Number(await create(owner.auth)));
  const start = await endOfFeed(admin.auth);
  const caller = { partnerId: owner.id, name: 'owner', role: 'partner' as const };

  let writing = true;
  const seen: Entry[] = [];
  const consumer = (async () => {
    let cursor = start;
    for (let idle = 0; idle < 3; ) {
      const { changes, next, hasMore } = await page(admin.auth, cursor, 7); // small pages: many cursors cross the writes
      seen.push(...changes.filter((e) => ids.includes(Number(e.id))));
      cursor = next;
      // Stops after three empty reads once every write has returned (committed).
      if (!writing && !hasMore && changes.length === 0) idle++;
      if (!hasMore) await sleep(10);
    }
  })();

  // Through the unit of work every endpoint uses, holding the transaction open a random while.
  const delayed = ids.map((id) =>
    deps.listingWrites.changeListing(caller, country, id, 'forbidden', async (tx) => {
      await tx
        .update(listings)
        .set({ name: `Verzögert ${runId} ${id}` })
        .where(eq(listings.id, id));
      await sleep(Math.random() * 300);
      return { result: undefined, change: 'updated' as const };
    }),
  );
  // And through the API, on half of the same listings: they wait for the row lock or go first.
  const viaApi = ids
    .filter((_, i) => i % 2 === 0)
    .map(async (id) => {
      await sleep(Math.random() * 200);
      const res = await app.inject({ method: 'PUT', url: `/${country}/listings/${id}`, headers: owner.auth, payload: input() });
      t.equal(res.statusCode, 200);
    });
  try {
    await Promise.all([...delayed, ...viaApi]);
  } finally {
    writing = false; // also when a write failed: the consumer must stop for the test to report it
    await consumer;
  }

  const keys = seen.map((e) => `${e.id}@${e.version}`);
  t.equal(new Set(keys).size, keys.length, 'no change twice');
  const expected = ids.flatMap((id, i) => (i % 2 === 0 ? [`${id}@2`, `${id}@3`] : [`${id}@2`]));
  t.same([...keys].sort(), [...expected].sort(), 'every change once');
  for (const id of ids) {
    const versions = seen.filter((e) => e.id === String(id)).map((e) => e.version);
    t.same(
      versions,
      [...versions].sort((a, b) => a - b),
      `listing ${id}: in version order`,
    );
  }
  const positions = seen.map((e) => decodeCursor(e.cursor)!);
  t.same(
    positions,
    [...positions].sort((a, b) => a - b),
    'in feed order',
  );
});

t.test('changes past their retention are purged oldest first; a cursor below the kept ones is 410 gone, the last purged one still works', async (t) => {
  const start = await endOfFeed(owner.auth);
  await create(owner.auth);
  await create(owner.auth);
  await create(owner.auth);
  const created = (await page(owner.auth, start)).changes.map((e) => decodeCursor(e.cursor)!);
  t.equal(created.length, 3);
  const [p1, pMiddle, p3] = created as [number, number, number];
  // Everything up to p1 and p3 itself look older than the retention; the change between is young,
  // so p3 must stay (kept positions are one unbroken run) and the purge stops at p1.
  const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
  await db.update(listingChanges).set({ at: old }).where(lte(listingChanges.seq, p1));
  await db.update(listingChanges).set({ at: old }).where(eq(listingChanges.seq, p3));
  const purged = await purgeExpired(db, { changeRetentionDays: 7 });
  t.ok(purged.changes >= 1, `${purged.changes} changes purged`);
  t.equal((await feedWindow(db)).purgedThrough, p1, 'purged exactly the run up to the first young change');
  t.same(
    (
      await db
        .select({ seq: listingChanges.seq })
        .from(listingChanges)
        .where(inArray(listingChanges.seq, [pMiddle, p3]))
    )
      .map((r) => r.seq)
      .sort((a, b) => a! - b!),
    [pMiddle, p3],
    'the young change and the old one after it are kept',
  );

  const gone = await feed(owner.auth, { after: encodeCursor(p1 - 1) });
  t.equal(gone.statusCode, 410);
  t.equal(gone.json().type, 'gone');
  t.match(gone.json().message, /export/);
  const atEdge = await feed(owner.auth, { after: encodeCursor(p1) });
  t.equal(atEdge.statusCode, 200, 'the last purged position is still a valid cursor');
  t.same(
    atEdge
      .json()
      .changes.slice(0, 2)
      .map((e: Entry) => decodeCursor(e.cursor)),
    [pMiddle, p3],
  );
  const oldest = await feed(owner.auth, {});
  t.equal(oldest.statusCode, 200);
  t.ok(
    oldest.json().changes.every((e: Entry) => decodeCursor(e.cursor)! > p1),
    'without after: from the oldest change kept',
  );
  t.same(await db.select({ seq: listingChanges.seq }).from(listingChanges).where(lte(listingChanges.seq, p1)), [], 'nothing at or below the purged position is left');
});
