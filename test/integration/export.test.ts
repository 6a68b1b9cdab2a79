// The consistent export (docs/contract.md §16): NDJSON as GET renders each listing, gzip when
// accepted, and one snapshot that the change feed continues exactly: export + feed = a mirror of
// every live listing, also while others write during the export.
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { and, eq, isNull } from 'drizzle-orm';
import t from 'tap';
import { listings } from '../../src/db/schema.js';
import { build, config, eventually, insertBulkListings, listingInput, runId } from '../helper.js';

const country = 'at';
const { app, deps, partner } = await build(t);
const { db, pool } = deps.database;
const owner = await partner();
const other = await partner();
const admin = await partner('admin');

type Auth = { authorization: string };
type Line = Record<string, unknown> & { id?: string; end?: { count: number; changes_after: string } };

let n = 0;
const input = () => listingInput({ name: `Export ${runId} ${++n}`, place: 'Wien', zip: '1010' });

async function create(auth: Auth): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/${country}/listings`, headers: auth, payload: input() });
  if (res.statusCode !== 201) throw new Error(`POST answered ${res.statusCode}: ${res.body}`);
  return res.json().id;
}

const exportOf = (auth: Auth, query = '', headers: Record<string, string> = {}) => app.inject({ url: `/${country}/listings/export${query}`, headers: { ...auth, ...headers } });

/** The export's listings and its end line, from an uncompressed body. */
function parse(text: string): { listings: Line[]; end: NonNullable<Line['end']> } {
  if (!text.endsWith('\n')) throw new Error('the body does not end with a newline');
  const lines = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
  const end = lines.pop()!;
  if (!end.end) throw new Error(`no end line: ${JSON.stringify(end).slice(0, 200)}`);
  return { listings: lines, end: end.end };
}

const getListing = async (auth: Auth, id: string) => app.inject({ url: `/${country}/listings/${id}`, headers: auth });

/** Ids in numeric order, the export's order. */
const byNumber = (ids: Iterable<string>) => [...ids].sort((a, b) => Number(a) - Number(b));

/** The live listings of the country in the database now. */
const liveIds = async () =>
  byNumber(
    (
      await db
        .select({ id: listings.id })
        .from(listings)
        .where(and(eq(listings.country, country), isNull(listings.deletedAt)))
    ).map((r) => String(r.id)),
  );

const mine = [await create(owner.auth), await create(owner.auth), await create(owner.auth)];
const theirs = [await create(other.auth), await create(other.auth)];
await app.inject({ method: 'PUT', url: `/${country}/listings/${mine[1]}/suppress`, headers: owner.auth });
await app.inject({ method: 'DELETE', url: `/${country}/listings/${mine[2]}`, headers: owner.auth });

t.test("the claimed scope (the default) streams the caller's live listings as GET renders them, then the end line", async (t) => {
  const res = await exportOf(owner.auth);
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/x-ndjson/);
  t.equal(res.headers['content-encoding'], undefined, 'not compressed without Accept-Encoding');
  const { listings: lines, end } = parse(res.body);
  t.same(
    lines.map((l) => l.id),
    [mine[0], mine[1]],
    'live listings claimed by the caller, in id order; the deleted one is not there',
  );
  t.equal(end.count, 2);
  t.match(end.changes_after, /^[A-Za-z0-9_-]+$/);
  for (const line of lines) t.same(line, (await getListing(owner.auth, line.id!)).json(), `listing ${line.id} as GET renders it`);
  t.equal(lines[1]!.suppressed, true, 'suppressed listings are included, flagged');
  t.ok(
    lines.every((l) => 'contact' in l),
    "the caller's own listings carry their contact",
  );
});

t.test('with Accept-Encoding: gzip the same export comes compressed', async (t) => {
  const plain = parse((await exportOf(owner.auth)).body);
  const res = await exportOf(owner.auth, '', { 'accept-encoding': 'gzip, deflate' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-encoding'], 'gzip');
  t.match(res.headers.vary, /accept-encoding/i);
  const unzipped = parse(gunzipSync(res.rawPayload).toString('utf8'));
  t.same(unzipped.listings, plain.listings);
  t.equal(unzipped.end.count, plain.end.count);
  t.equal((await exportOf(owner.auth, '', { 'accept-encoding': 'gzip;q=0, br' })).headers['content-encoding'], undefined, 'gzip refused by q=0');
});

t.test('scope=all holds every live listing of the country; contact only where the caller claims the listing', async (t) => {
  const res = await exportOf(other.auth, '?scope=all');
  t.equal(res.statusCode, 200);
  const { listings: lines, end } = parse(res.body);
  t.same(
    lines.map((l) => l.id),
    await liveIds(),
    'every live listing, in id order',
  );
  t.equal(end.count, lines.length);
  const byId = new Map(lines.map((l) => [l.id!, l]));
  t.notOk(byId.has(mine[2]!), 'deleted listings are left out');
  t.equal(byId.get(mine[1]!)!.suppressed, true);
  for (const id of theirs) t.same(byId.get(id), (await getListing(other.auth, id)).json(), `own listing ${id}: exactly as GET`);
  const foreign = byId.get(mine[0]!)!;
  t.notOk('contact' in foreign, "another partner's listing comes without its contact");
  const { contact: _contact, ...withoutContact } = (await getListing(other.auth, mine[0]!)).json();
  t.same(foreign, withoutContact, 'and otherwise as GET renders it');
});

t.test('a bad scope is a 400 validation error', async (t) => {
  const res = await exportOf(owner.auth, '?scope=everything');
  t.equal(res.statusCode, 400);
  t.equal(res.json().type, 'validation');
});

t.test('export + change feed from changes_after = a mirror of every live listing, with writers busy during the export', async (t) => {
  const ids = [...mine, ...theirs];
  const pick = () => ids[Math.floor(Math.random() * ids.length)]!;
  let exporting = true;
  const failures: string[] = [];
  async function writer() {
    // Keeps writing until the export is over, and a few writes more after it.
    for (let after = 0; after < 5; after += exporting ? 0 : 1) {
      const op = Math.floor(Math.random() * 5);
      const id = pick();
      const path = `/${country}/listings/${id}`;
      const res =
        op === 0
          ? await app.inject({ method: 'POST', url: `/${country}/listings`, headers: owner.auth, payload: input() })
          : op === 1
            ? await app.inject({ method: 'PUT', url: path, headers: owner.auth, payload: input() })
            : op === 2
              ? await app.inject({ method: 'DELETE', url: path, headers: owner.auth })
              : await app.inject({ method: op === 3 ? 'PUT' : 'DELETE', url: `${path}/suppress`, headers: owner.auth });
      if (op === 0 && res.statusCode === 201) ids.push(res.json().id);
      // 403/404/409: the listing was taken or deleted by another writer meanwhile; that is fine here.
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${res.body}`);
    }
  }
  const writers = [writer(), writer(), writer()];
  const exported = await exportOf(admin.auth, '?scope=all');
  exporting = false;
  await Promise.all(writers);
  t.same(failures, []);
  t.equal(exported.statusCode, 200);
  const { listings: lines, end } = parse(exported.body);

  // The mirror: the export, then every change after changes_after applied by reading the listing.
  const mirror = new Map(lines.map((l) => [l.id!, l]));
  let applied = 0;
  for (let cursor = end.changes_after; ; ) {
    const res = await app.inject({ url: `/${country}/changes?after=${cursor}&limit=50`, headers: admin.auth });
    t.equal(res.statusCode, 200);
    const page = res.json() as { changes: { id: string }[]; next: string; hasMore: boolean };
    for (const change of page.changes) {
      const current = await getListing(admin.auth, change.id);
      if (current.statusCode === 404) mirror.delete(change.id);
      else mirror.set(change.id, current.json());
      applied++;
    }
    cursor = page.next;
    if (!page.hasMore) break;
  }
  t.ok(applied > 0, `${applied} changes applied after the export`);

  t.same(byNumber(mirror.keys()), await liveIds(), 'the mirror holds exactly the live listings');
  // Compared by content, which is more than id and version: GET does not show versions, and any
  // change a version counts shows in the content.
  for (const id of await liveIds()) {
    t.same(mirror.get(id), (await getListing(admin.auth, id)).json(), `listing ${id}: the mirror equals the database now`);
  }
});

t.test('an export the client abandons gives back its database connection and its slot', async (t) => {
  // Enough listings of one fresh partner for a body that does not fit the socket buffers at once.
  const bulk = await partner();
  t.teardown(await insertBulkListings(deps, { country, partnerId: bulk.id, count: 1500 }));

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const abandon = () =>
    new Promise<void>((resolve, reject) => {
      const req = get({ host: '127.0.0.1', port, path: `/${country}/listings/export`, headers: bulk.auth }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        res.once('data', () => {
          req.destroy(); // the client goes away after the first chunk
          resolve();
        });
      });
      req.on('error', () => {});
    });
  const allIdle = () => eventually(async () => (pool.idleCount === pool.totalCount ? true : undefined), 10_000, 'every pooled connection to be idle again');
  // One after the other: a key exports one at a time, and the server learns of each departure a
  // moment after the client left.
  for (let i = 0; i < config.EXPORT_CONCURRENCY + 1; i++) {
    await abandon();
    await allIdle();
  }

  const res = await exportOf(bulk.auth);
  t.equal(res.statusCode, 200, 'the export slots were given back');
  const { listings: lines, end } = parse(res.body);
  t.equal(end.count, 1500);
  t.equal(lines.length, 1500);
});
