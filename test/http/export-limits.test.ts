// The export's limits (src/routes/export.ts, docs/contract.md §16): one export per key at a time; a
// client that stops reading loses its export after EXPORT_STALL_MS, any export ends after
// EXPORT_MAX_MS; the wait for a slot is bounded by EXPORT_WAIT_MS. A cut-off export gives its
// slot, its snapshot and its database connection back. Over real sockets, with an export far
// larger than the socket buffers, so that a client that stops reading really blocks the server's
// writes: on loopback the receiver's buffer alone may autotune up to net.ipv4.tcp_rmem's maximum
// (32 MB here), the sender's to tcp_wmem's (4 MB).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import type { Config } from '../../src/platform/config.js';
import { build, eventually, insertBulkListings } from '../helper.js';
import { stalledReader } from '../raw-clients.js';

const country = 'de';
// 12 000 listings of about 4.5 KB each: some 54 MB of NDJSON, more than both buffers can hold.
const BULK = { count: 12_000, descriptionBytes: 4000 };
const LONG = 10 * 60_000;

/** An app with one export slot, listening on a port; every other limit far away unless given. */
async function exportApp(t: Test, limits: Partial<Config>) {
  const built = await build(t, {
    config: { EXPORT_CONCURRENCY: 1, EXPORT_WAIT_MS: LONG, EXPORT_STALL_MS: LONG, EXPORT_MAX_MS: LONG, HTTP_IDLE_TIMEOUT_MS: LONG, ...limits },
  });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as AddressInfo;
  const bulk = await built.partner();
  t.teardown(await insertBulkListings(built.deps, { country, partnerId: bulk.id, ...BULK }));
  const { pool } = built.deps.database;
  const allIdle = () => eventually(async () => (pool.idleCount === pool.totalCount ? true : undefined), 10_000, 'every pooled connection to be idle again');
  return { ...built, port, bulk, allIdle };
}

const exportOf = (app: FastifyInstance, auth: { authorization: string }) => app.inject({ url: `/${country}/listings/export`, headers: auth });

/**
 * The status of a big export over a real socket, then the client leaves. Read whole through
 * app.inject, its 54 MB could meet the stall deadline of the test on a busy machine.
 */
async function exportStatus(port: number, auth: { authorization: string }): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/${country}/listings/export`, { headers: auth });
  await res.body?.cancel();
  return res.status;
}

t.test('a client that stops reading loses its export after EXPORT_STALL_MS: its slot goes to the next export at once, its snapshot is rolled back', async (t) => {
  const STALL_MS = 1000;
  const { port, bulk, partner, allIdle } = await exportApp(t, { EXPORT_STALL_MS: STALL_MS });
  const other = await partner();
  const stalled = stalledReader(t, port, `/${country}/listings/export`, bulk.auth);
  t.equal((await stalled.head).status, 200, 'the big export started');
  const started = Date.now();
  const next = await exportStatus(port, other.auth);
  const ms = Date.now() - started;
  t.equal(next, 200, "another key's export, waiting for the only slot, is served");
  t.ok(ms < 8000, `within ${ms} ms: the buffers filled and the stall deadline passed, far below the idle timeout`);
  await allIdle();
  const rest = await stalled.readRest();
  t.notOk(rest.includes('{"end":'), 'the stalled export was cut off: its body has no end line');
  t.notOk(rest.endsWith('0\r\n\r\n'), 'and no end of its chunked body either');
  t.equal(await exportStatus(port, bulk.auth), 200, 'its key may export again');
});

t.test("a key's second export while its first runs is 429 at once; a wait for a slot past EXPORT_WAIT_MS is 503; EXPORT_MAX_MS ends any export", async (t) => {
  const MAX_MS = 2500;
  const WAIT_MS = 500;
  const { app, port, bulk, partner, allIdle } = await exportApp(t, { EXPORT_MAX_MS: MAX_MS, EXPORT_WAIT_MS: WAIT_MS });
  const [other, third] = [await partner(), await partner()];
  const started = Date.now();
  const first = stalledReader(t, port, `/${country}/listings/export`, bulk.auth);
  t.equal((await first.head).status, 200, 'the first export streams (and its client stops reading)');

  const second = await exportOf(app, bulk.auth);
  t.equal(second.statusCode, 429, "the same key's second export");
  t.equal(second.json().type, 'rate_limited');
  t.equal(second.headers['retry-after'], '10', 'with Retry-After');

  const waitStarted = Date.now();
  const waited = await exportOf(app, other.auth);
  t.equal(waited.statusCode, 503, 'another key finds no slot within EXPORT_WAIT_MS');
  t.same(waited.json(), { type: 'unavailable', message: `no export slot came free within ${WAIT_MS} ms`, details: [] });
  t.equal(waited.headers['retry-after'], '1', 'with Retry-After');
  t.ok(Date.now() - waitStarted < WAIT_MS + 1000, 'after the wait limit');

  // The first client reads again only after EXPORT_MAX_MS: until then its export stays blocked on
  // full buffers (and would finish within a second were it read at once); its stall deadline is far.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, MAX_MS + 500 - (Date.now() - started))));
  const rest = await first.readRest();
  const ms = Date.now() - started;
  t.ok(ms >= MAX_MS - 100 && ms < MAX_MS + 3000, `the first export was cut off after EXPORT_MAX_MS (${ms} ms), though its stall deadline is far`);
  t.notOk(rest.includes('{"end":'), 'its body has no end line');
  await allIdle();
  const after = await exportOf(app, third.auth);
  t.equal(after.statusCode, 200, 'the slot is free again');
  t.match(after.body, /"end":\{"count":0,/, 'a whole export, with its end line');
});
