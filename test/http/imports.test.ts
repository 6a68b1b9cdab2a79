// Bulk imports (docs/contract.md §19) through the real app, with the indexer's import runner in
// this process: items created, updated, unchanged and failed, mode=replace, limits, gzip, cancel,
// Idempotency-Key, visibility, the change feed and the index.
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { build, config, eventually, indexedDocument, INDEXED_WITHIN_MS, listingInput, runId, startImportRunner, startIndexer } from '../helper.js';
import { pendingLines } from '../../src/imports/imports-dal.js';

const { app, deps, partner } = await build(t);
const alice = await partner();
const bob = await partner();
const admin = await partner('admin');

type Auth = { authorization: string };
interface Job {
  id: string;
  status: string;
  mode: string;
  counts: Record<string, number>;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error?: string;
}
interface Result {
  line: number;
  source_id: string | null;
  status: string;
  id?: string;
  version?: number;
  error?: { type: string; message: string; details: string[] };
}

let n = 0;
/** A unique source_id and name per call. */
const item = (overrides: Record<string, unknown> = {}) => {
  const key = `imp-${runId}-${++n}`;
  return { ...listingInput({ name: `Import ${key}` }), source_id: key, ...overrides };
};
const ndjson = (lines: (object | string)[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

const submit = (auth: Auth, body: string | Buffer, { mode, headers = {} }: { mode?: string; headers?: Record<string, string> } = {}) =>
  app.inject({
    method: 'POST',
    url: `/de/imports${mode ? `?mode=${mode}` : ''}`,
    headers: { ...auth, 'content-type': 'application/x-ndjson', ...headers },
    payload: body,
  });
const getJob = async (auth: Auth, id: string) => (await app.inject({ url: `/de/imports/${id}`, headers: auth })).json() as Job;
const finished = (auth: Auth, id: string) =>
  eventually(
    async () => {
      const job = await getJob(auth, id);
      return ['done', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
    },
    30_000,
    `import ${id} to finish`,
  );
const results = async (auth: Auth, id: string) => {
  const res = await app.inject({ url: `/de/imports/${id}/results`, headers: auth });
  return res.body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Result);
};
/** Submits, checks the 202, and waits for the job's end. */
async function run(auth: Auth, lines: (object | string)[], mode?: string) {
  const res = await submit(auth, ndjson(lines), mode ? { mode } : {});
  if (res.statusCode !== 202) throw new Error(`expected 202, got ${res.statusCode}: ${res.body}`);
  return finished(auth, res.json().id);
}
const changeKinds = async (listingId: string) => (await deps.database.pool.query('select kind from listing_changes where listing_id = $1 order by id', [listingId])).rows.map((r) => r.kind as string);
const readListing = (id: string) => app.inject({ url: `/de/listings/${id}`, headers: alice.auth });

// Before the runner starts, so that the job is certainly still queued.
t.test('DELETE cancels a queued import (204); a cancelled one is not run and a second DELETE is 409', async (t) => {
  const res = await submit(alice.auth, ndjson([item()]));
  t.equal(res.statusCode, 202);
  const { id } = res.json();
  const cancel = await app.inject({ method: 'DELETE', url: `/de/imports/${id}`, headers: alice.auth });
  t.equal(cancel.statusCode, 204);
  t.equal((await getJob(alice.auth, id)).status, 'cancelled');
  t.equal((await app.inject({ method: 'DELETE', url: `/de/imports/${id}`, headers: alice.auth })).statusCode, 409);
});

t.test('DELETE of a job whose batch holds its row longer than DB_LOCK_TIMEOUT_MS waits for the batch, then cancels', async (t) => {
  const { id } = (await submit(alice.auth, ndjson([item()]))).json();
  // A batch being applied holds the job's row (indexer/import-runner.ts, lockImport) until it commits.
  const batch = await deps.database.pool.connect();
  t.teardown(() => batch.release());
  await batch.query('begin');
  await batch.query('select id from imports where id = $1 for update', [id]);
  const cancelling = app.inject({ method: 'DELETE', url: `/de/imports/${id}`, headers: alice.auth });
  // Held for twice the lock timeout: a cancel that gave up after DB_LOCK_TIMEOUT_MS would answer 503.
  await new Promise((resolve) => setTimeout(resolve, 2 * config.DB_LOCK_TIMEOUT_MS));
  await batch.query('commit');
  t.equal((await cancelling).statusCode, 204);
  t.equal((await getJob(alice.auth, id)).status, 'cancelled');
});

t.test('a batch reads at most IMPORT_BATCH_BYTES of lines, and always one line', async (t) => {
  const lines = [item({ description: 'x'.repeat(3000) }), item({ description: 'x'.repeat(3000) }), item()];
  const res = await submit(alice.auth, ndjson(lines));
  const { id } = res.json();
  const size = Buffer.byteLength(JSON.stringify(lines[0]));
  const batchOf = async (limit: number, maxBytes: number, afterLine = 0) => (await pendingLines(deps.database.db, Number(id), afterLine, limit, maxBytes)).map((l) => l.line);
  t.same(await batchOf(10, 1), [1], 'a line longer than the bound is a batch of its own');
  t.same(await batchOf(10, size + 1), [1, 2], 'the bound stops the batch after the line that reaches it');
  t.same(await batchOf(10, 10 * size), [1, 2, 3]);
  t.same(await batchOf(2, 10 * size), [1, 2], 'as does IMPORT_BATCH_SIZE');
  t.same(await batchOf(10, 10 * size, 1), [2, 3], 'the next batch starts after the last one');
  t.equal((await app.inject({ method: 'DELETE', url: `/de/imports/${id}`, headers: alice.auth })).statusCode, 204);
});

startImportRunner(t, deps);

t.test('POST answers 202 with the queued job and its Location', async (t) => {
  const res = await submit(alice.auth, ndjson([item(), item()]));
  t.equal(res.statusCode, 202);
  const job = res.json() as Job;
  t.match(job, { id: /^[1-9][0-9]*$/, status: 'queued', mode: 'upsert', counts: { lines: 2, processed: 0, created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0 } });
  t.equal(res.headers.location, `/de/imports/${job.id}`);
  const done = await finished(alice.auth, job.id);
  t.equal(done.status, 'done');
  t.match(done.counts, { lines: 2, processed: 2, created: 2 });
  t.ok(done.started_at && done.finished_at, 'started_at and finished_at are set');
});

t.test('each line is created, updated, unchanged or failed with its line number and field paths', async (t) => {
  const a = item();
  const b = item();
  const first = await run(alice.auth, [
    a,
    '',
    b,
    '{"name": not json',
    JSON.stringify({ ...item(), source_id: undefined }),
    { ...item(), zip: '', phones: [{ type: 'landline', number: '12' }] },
    { ...a, description: 'Now with cake' }, // the same source_id again: the later line wins
  ]);
  t.equal(first.status, 'done');
  t.match(first.counts, { lines: 6, processed: 6, created: 2, updated: 1, unchanged: 0, failed: 3 });
  const lines = await results(alice.auth, first.id);
  t.same(
    lines.map((l) => [l.line, l.status]),
    [
      [1, 'created'],
      [3, 'created'],
      [4, 'failed'],
      [5, 'failed'],
      [6, 'failed'],
      [7, 'updated'],
    ],
    'line numbers count the empty line',
  );
  t.equal(lines[0]!.source_id, a.source_id);
  t.equal(lines[0]!.id, lines[5]!.id, 'the same source_id is the same listing');
  t.equal(lines[5]!.version, 2);
  t.equal(lines[2]!.error?.type, 'validation');
  t.match(lines[2]!.error?.message, /not JSON/);
  t.ok(lines[3]!.error?.details.includes('source_id: is required'));
  t.match(lines[4]!.error?.details, [/^zip: /, /^phones\[0\]\.number: /]);
  t.match(lines[4]!.source_id, /^imp-/, 'a failed line still names its source_id');

  const aId = lines[0]!.id!;
  const bId = lines[1]!.id!;
  t.equal((await readListing(aId)).json().description, 'Now with cake');
  const claimed = await app.inject({ url: `/de/listings/map?source_id=${b.source_id}`, headers: alice.auth });
  t.same(claimed.json().mappings, [{ source_id: b.source_id, service_id: bId }], 'a created listing is mapped to its source_id');

  const second = await run(alice.auth, [
    { ...a, description: 'Now with cake' },
    { ...b, place: 'Potsdam' },
  ]);
  t.match(second.counts, { lines: 2, processed: 2, created: 0, updated: 1, unchanged: 1, failed: 0 });
  const again = await results(alice.auth, second.id);
  t.same(
    again.map((l) => [l.status, l.id, l.version]),
    [
      ['unchanged', aId, 2],
      ['updated', bId, 2],
    ],
  );
  t.same(await changeKinds(aId), ['created', 'updated'], 'one change per created or updated item, none for the unchanged one');
  t.same(await changeKinds(bId), ['created', 'updated']);
  t.equal((await readListing(bId)).json().place, 'Potsdam');

  // Unchanged lines are found by one read before the batch; a line equal to the listing as it was
  // before an earlier line of the same job changed it is still applied.
  const third = await run(alice.auth, [
    { ...a, description: 'Closed for cake' },
    { ...a, description: 'Now with cake' },
  ]);
  t.match(third.counts, { processed: 2, updated: 2, unchanged: 0 });
  t.same(
    (await results(alice.auth, third.id)).map((l) => [l.status, l.version]),
    [
      ['updated', 3],
      ['updated', 4],
    ],
  );
  t.equal((await readListing(aId)).json().description, 'Now with cake', 'the later line wins');
});

t.test("lines are stored as they came: JSON's backslash escapes stay escapes, a raw tab is just a character", async (t) => {
  const escaped = item({ name: `AC\\DC \\N Bar ${runId}`, description: 'Tab\there, "quoted", back\\slash' });
  const job = await run(alice.auth, [escaped, `not json\twith a tab and \\N in it`]);
  t.match(job.counts, { lines: 2, created: 1, failed: 1 });
  const [created, failed] = await results(alice.auth, job.id);
  t.equal(failed!.status, 'failed');
  t.equal(failed!.line, 2);
  const stored = (await readListing(created!.id!)).json();
  t.equal(stored.name, escaped.name, 'the backslashes of the name survive');
  t.equal(stored.description, escaped.description, 'and the tab of the description');
});

t.test('the same line again is unchanged only while its listing holds what that line left', async (t) => {
  const line = item();
  const statuses = async (job: Job) => (await results(alice.auth, job.id)).map((l) => [l.status, l.version]);
  const [created] = await results(alice.auth, (await run(alice.auth, [line])).id);
  const id = created!.id!;
  t.same(await statuses(await run(alice.auth, [line])), [['unchanged', 1]], 'a resubmitted line changes nothing');

  const put = await app.inject({ method: 'PUT', url: `/de/listings/${id}`, headers: alice.auth, payload: { ...line, name: `Renamed ${line.source_id}` } });
  t.equal(put.statusCode, 200);
  t.same(await statuses(await run(alice.auth, [line])), [['updated', 3]], 'after an edit, the same line writes its content back');
  t.equal((await readListing(id)).json().name, line.name);
  t.same(await statuses(await run(alice.auth, [line])), [['unchanged', 3]]);

  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: alice.auth })).statusCode, 204);
  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${id}/claim`, headers: bob.auth })).statusCode, 204);
  const [refused] = await results(alice.auth, (await run(alice.auth, [line])).id);
  t.match(refused, { status: 'failed', error: { type: 'forbidden' } }, 'claimed by another partner since: refused, not unchanged');
});

t.test("a batch's new listings are stored as a POST stores them; an unknown category fails its line alone", async (t) => {
  const full = {
    keywords: ['Brot', 'Kuchen'],
    emails: [{ address: 'a@example.com' }, { address: 'b@example.com' }],
    phones: [
      { type: 'landline', number: '+493012345678' },
      { type: 'mobile', number: '+4915112345678' },
    ],
    links: [
      { type: 'website', url: 'https://example.com' },
      { type: 'facebook', url: 'https://facebook.com/example' },
    ],
    categories: [{ id: 'shop/bakery' }, { id: 'shop/pastry' }],
    special_hours: [{ date: '2030-12-24', closed: false, intervals: [{ start: '08:00', end: '12:00' }] }],
    temporarily_closed: { until: '2030-01-31' },
  };
  const imported = item(full);
  const job = await run(alice.auth, [item(), { ...item(), categories: [{ id: 'shop/no-such-thing' }] }, imported, { ...item(), latitude: null, longitude: null }]);
  t.match(job.counts, { created: 3, failed: 1 });
  const lines = await results(alice.auth, job.id);
  t.same(
    lines.map((l) => [l.status, l.version]),
    [
      ['created', 1],
      ['failed', undefined],
      ['created', 1],
      ['created', 1],
    ],
  );
  t.equal(lines[1]!.error?.type, 'validation');
  t.match(lines[1]!.error?.details, [/^categories\[0\]/], 'the unknown category is named');

  const posted = await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: { ...imported, source_id: undefined } });
  t.equal(posted.statusCode, 201);
  type Items = Record<string, unknown>[];
  const withoutIds = (items: Items) => items.map(({ id: _, ...rest }) => rest);
  // Ids and times differ; the content, and the order and content of the lists, must not.
  const comparable = ({ id: _id, url: _url, created_at: _c, updated_at: _u, emails, phones, links, ...rest }: Record<string, unknown>) => ({
    ...rest,
    emails: withoutIds(emails as Items),
    phones: withoutIds(phones as Items),
    links: withoutIds(links as Items),
  });
  const viaImport = (await readListing(lines[2]!.id!)).json();
  const viaPost = (await readListing(posted.json().id)).json();
  t.same(comparable(viaImport), comparable(viaPost), 'the imported listing reads as the posted one');
  t.same(await changeKinds(lines[2]!.id!), ['created']);
  const history = (await app.inject({ url: `/de/listings/${lines[2]!.id}/history`, headers: admin.auth })).json().versions as { change: string; channel: string }[];
  t.match(history, [{ change: 'created', channel: 'import' }], 'its history names the import');
  const mapped = await app.inject({ url: `/de/listings/map?source_id=${imported.source_id}`, headers: alice.auth });
  t.same(mapped.json().mappings, [{ source_id: imported.source_id, service_id: lines[2]!.id }]);
});

t.test('a line the database refuses fails alone; the batch is rolled back and run again, no line applied twice', async (t) => {
  // scripts/test.sh adds a check constraint refusing names with this marker (test/http/logs.test.ts):
  // a create that fails in PostgreSQL, not in validation. Creates run without savepoints first, so
  // it aborts the batch's transaction, which runs again with a savepoint per line.
  const [before, refused, after] = [item(), item({ name: `Geheimname ${runId}` }), item()];
  const job = await run(alice.auth, [before, refused, after]);
  t.equal(job.status, 'done');
  t.match(job.counts, { lines: 3, processed: 3, created: 2, failed: 1 });
  const lines = await results(alice.auth, job.id);
  t.same(
    lines.map((l) => l.status),
    ['created', 'failed', 'created'],
  );
  t.same(lines[1]!.error, { type: 'validation', message: 'the database refused the listing', details: ['sqlstate: 23514'] }, 'the error does not repeat the refused data');
  t.same(await changeKinds(lines[0]!.id!), ['created'], 'the line before it was applied once');
  t.same(await changeKinds(lines[2]!.id!), ['created'], 'and the line after it');
});

t.test('a mapped source_id whose listing another partner claims fails with forbidden', async (t) => {
  const sourceId = `imp-${runId}-taken`;
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput() })).json();
  await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: alice.auth });
  await app.inject({ method: 'PUT', url: `/de/listings/${id}/claim`, headers: bob.auth, payload: { source_id: sourceId } });
  await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: bob.auth });
  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${id}/claim`, headers: alice.auth })).statusCode, 204);
  const job = await run(bob.auth, [item({ source_id: sourceId })]);
  t.match(job.counts, { failed: 1, updated: 0, created: 0 });
  const [line] = await results(bob.auth, job.id);
  t.equal(line!.error?.type, 'forbidden');
  t.notMatch((await readListing(id)).json().name, /^Import /, 'the listing is unchanged');
});

t.test("mode=replace deletes the caller's listings no line named, and nothing when a line failed", async (t) => {
  const carol = await partner();
  const [one, two, three] = [item(), item(), item()];
  const seeded = await run(carol.auth, [one, two, three]);
  const ids = (await results(carol.auth, seeded.id)).map((l) => l.id!);

  const failing = await run(carol.auth, [one, '{broken'], 'replace');
  t.equal(failing.status, 'done');
  t.match(failing.counts, { unchanged: 1, failed: 1, deleted: 0 });
  t.match(failing.error, /deleted nothing/);
  for (const id of ids) t.equal((await readListing(id)).statusCode, 200, `listing ${id} is kept`);

  const replaced = await run(carol.auth, [one, { ...two, place: 'Hamburg' }], 'replace');
  t.equal(replaced.mode, 'replace');
  t.match(replaced.counts, { unchanged: 1, updated: 1, deleted: 1, failed: 0 });
  t.notOk(replaced.error);
  t.equal((await readListing(ids[2]!)).statusCode, 404, 'the listing whose source_id was missing is deleted');
  t.same(await changeKinds(ids[2]!), ['created', 'deleted']);
  t.equal((await readListing(ids[0]!)).statusCode, 200);
});

t.test('a gzip body is accepted; a corrupt one makes the job fail as a whole', async (t) => {
  const zipped = await submit(alice.auth, gzipSync(ndjson([item(), item()])), { headers: { 'content-encoding': 'gzip' } });
  t.equal(zipped.statusCode, 202);
  t.match((await finished(alice.auth, zipped.json().id)).counts, { lines: 2, created: 2 });

  const corrupt = Buffer.concat([gzipSync(ndjson([item()])).subarray(0, 12), Buffer.from('definitely not deflate data')]);
  const res = await submit(alice.auth, corrupt, { headers: { 'content-encoding': 'gzip' } });
  t.equal(res.statusCode, 202);
  const job = await finished(alice.auth, res.json().id);
  t.equal(job.status, 'failed');
  t.match(job.error, /not valid gzip/);
  t.equal(job.counts.processed, 0, 'nothing applied');
});

t.test('a wrong content type or encoding answers 415', async (t) => {
  const json = await app.inject({ method: 'POST', url: '/de/imports', headers: alice.auth, payload: item() });
  t.equal(json.statusCode, 415);
  t.match(json.json(), { type: 'unsupported_media_type', message: /x-ndjson/ });
  const text = await app.inject({ method: 'POST', url: '/de/imports', headers: { ...alice.auth, 'content-type': 'text/csv' }, payload: 'a,b' });
  t.equal(text.statusCode, 415);
  t.equal(text.json().type, 'unsupported_media_type');
  const brotli = await submit(alice.auth, ndjson([item()]), { headers: { 'content-encoding': 'br' } });
  t.equal(brotli.statusCode, 415);
});

t.test('over IMPORT_MAX_ITEMS or IMPORT_MAX_BYTES: 413 and no job is stored', async (t) => {
  const small = await build(t, { config: { IMPORT_MAX_ITEMS: 3, IMPORT_MAX_BYTES: 8 * 1024 } });
  const dave = await small.partner();
  const count = async () => Number((await deps.database.pool.query('select count(*) from imports where partner_id = $1', [dave.id])).rows[0].count);
  const inject = (body: string) => small.app.inject({ method: 'POST', url: '/de/imports', headers: { ...dave.auth, 'content-type': 'application/x-ndjson' }, payload: body });
  const items = await inject(ndjson([item(), item(), item(), item()]));
  t.equal(items.statusCode, 413);
  t.match(items.json(), { type: 'payload_too_large', message: /3 lines/ });
  const bytes = await inject(ndjson([item({ description: 'x'.repeat(4000) }), item({ description: 'y'.repeat(4000) }), item({ description: 'z'.repeat(4000) })]));
  t.equal(bytes.statusCode, 413);
  t.match(bytes.json().message, /bytes/);
  t.equal(await count(), 0, 'neither job exists, not even half-stored');
  t.equal((await inject(ndjson([item(), item(), item()]))).statusCode, 202, 'at the limit is accepted');
});

t.test('Idempotency-Key: the same body answers the same job, another body 409', async (t) => {
  const key = `import-key-${runId}`;
  const body = ndjson([item()]);
  const first = await submit(alice.auth, body, { headers: { 'idempotency-key': key } });
  t.equal(first.statusCode, 202);
  const again = await submit(alice.auth, body, { headers: { 'idempotency-key': key } });
  t.equal(again.statusCode, 202);
  t.equal(again.json().id, first.json().id);
  t.equal(again.headers['idempotent-replayed'], 'true');
  const other = await submit(alice.auth, ndjson([item()]), { headers: { 'idempotency-key': key } });
  t.equal(other.statusCode, 409);
  t.equal(other.json().type, 'conflict');
  const bobsOwn = await submit(bob.auth, body, { headers: { 'idempotency-key': key } });
  t.not(bobsOwn.json().id, first.json().id, 'keys are scoped to the partner');
  await finished(alice.auth, first.json().id);
});

t.test("another partner's import is 404; admins see it; lists hold the caller's jobs newest first", async (t) => {
  const job = await run(alice.auth, [item()]);
  for (const [method, path] of [
    ['GET', ''],
    ['GET', '/results'],
    ['DELETE', ''],
  ] as const) {
    const res = await app.inject({ method, url: `/de/imports/${job.id}${path}`, headers: bob.auth });
    t.equal(res.statusCode, 404, `${method} ${path || '/'} by another partner`);
    t.equal(res.json().type, 'not_found');
  }
  t.equal((await app.inject({ url: `/de/imports/${job.id}`, headers: admin.auth })).statusCode, 200);
  t.equal((await app.inject({ url: `/at/imports/${job.id}`, headers: alice.auth })).statusCode, 404, 'another country');
  const list = (await app.inject({ url: '/de/imports', headers: alice.auth })).json().imports as Job[];
  t.equal(list[0]!.id, job.id, 'newest first');
  const bobs = (await app.inject({ url: '/de/imports', headers: bob.auth })).json().imports as Job[];
  t.notOk(bobs.some((j) => j.id === job.id));
  t.ok(((await app.inject({ url: '/de/imports', headers: admin.auth })).json().imports as Job[]).some((j) => j.id === job.id));
});

t.test('a finished import is in the index: its documents are written before it is done', async (t) => {
  // No index worker runs: the runner writes its batches' documents itself.
  const job = await run(alice.auth, [item(), item(), { ...item(), latitude: 48.1, longitude: 11.5 }]);
  const ids = (await results(alice.auth, job.id)).map((l) => l.id!);
  for (const id of ids) {
    const doc = await indexedDocument(deps, 'de', id);
    t.equal(doc?.version, 1, `listing ${id} is in the index at its version when the job is done`);
    t.match(doc?.source.name, /^Import /);
  }
  const pending = await deps.database.pool.query('select count(*)::int as n from outbox where listing_id = any($1::bigint[]) and processed_at is null', [ids]);
  t.equal(pending.rows[0].n, 0, 'and their outbox events are done: no queue job is needed');
});

t.test('a single write after an import reaches the index through the index worker', async (t) => {
  await startIndexer(t, deps);
  const imported = item();
  const job = await run(alice.auth, [imported]);
  const [{ id }] = (await results(alice.auth, job.id)) as [Result];
  const put = await app.inject({ method: 'PUT', url: `/de/listings/${id}`, headers: alice.auth, payload: { ...imported, name: `Renamed ${imported.source_id}` } });
  t.equal(put.statusCode, 200);
  const doc = await eventually(() => indexedDocument(deps, 'de', id!).then((d) => (d && d.version >= 2 ? d : undefined)), INDEXED_WITHIN_MS, `listing ${id} at version 2 in the index`);
  t.match(doc.source.name, /^Renamed /);
});
