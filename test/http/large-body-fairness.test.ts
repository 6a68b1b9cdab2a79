// The large-body slots are fair between keys (src/plugins/large-body-gate.ts,
// src/platform/keyed-slots.ts): a key sends one large body at a time, so one partner's trickling
// uploads cannot hold up another partner's; and a body that finds no slot within
// LARGE_BODY_WAIT_MS is answered 503 with Retry-After instead of waiting for as long as the slots
// stay busy. Over real sockets: the slow clients are raw ones (test/raw-clients.ts).
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { jpegOfSize } from '../fixtures/crafted-images.js';
import { build, listingInput, runId } from '../helper.js';
import { slowUpload } from '../raw-clients.js';

const BODY_TIMEOUT_MS = 10_000;
const WAIT_MS = 1000;
// The defaults but for the times: a slot is held for long, a wait is short.
const { app, partner } = await build(t, {
  config: { LARGE_BODY_BYTES: 1024 * 1024, LARGE_BODY_CONCURRENCY: 2, LARGE_BODY_TIMEOUT_MS: BODY_TIMEOUT_MS, LARGE_BODY_WAIT_MS: WAIT_MS },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

/** A partner with a listing of its own to upload images to. */
async function uploader() {
  const { auth } = await partner();
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() });
  const path = `/de/listings/${res.json().id as string}/images`;
  return { auth, path };
}

let uploads = 0;
/** A complete upload of a valid image of 1.2 MB in base64, sent at once; its status and time. */
async function upload({ auth, path }: { auth: { authorization: string }; path: string }) {
  const base64 = jpegOfSize(900_000, `fairness ${runId} ${++uploads}`).toString('base64');
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    body: JSON.stringify({ type: 'photo', caption: '', base64 }),
    headers: { ...auth, 'content-type': 'application/json' },
    signal: AbortSignal.timeout(BODY_TIMEOUT_MS * 2),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: Date.now() - started };
}

const [a, b, c, d, e] = [await uploader(), await uploader(), await uploader(), await uploader(), await uploader()];

t.test("one key's two trickling uploads hold one slot: its second is 429 at once, another key's 1.2 MB upload is served promptly", async (t) => {
  const first = slowUpload(t, port, a.path, a.auth);
  await new Promise((r) => setTimeout(r, 300)); // the first holds a slot now
  const second = slowUpload(t, port, a.path, a.auth);
  const refused = await second.answer;
  t.equal(refused.status, 429, "the same key's second large body is refused");
  t.equal(JSON.parse(refused.body).type, 'rate_limited');
  t.equal(refused.headers['retry-after'], '1', 'with Retry-After');
  t.equal(refused.headers.connection, 'close', 'unread: the connection closes after the answer');
  t.ok(refused.ms < 1000, `at once (${refused.ms} ms)`);

  const served = await upload(b);
  t.equal(served.status, 201, "another partner's complete upload is stored");
  t.ok(served.ms < 2000, `promptly (${served.ms} ms), well under the ${BODY_TIMEOUT_MS} ms a trickling upload may hold its slot`);
  t.equal((await upload(c)).status, 201, 'and the next one too: the slow key holds one slot, not both');
  first.leave();
});

t.test('a large body that finds no slot within LARGE_BODY_WAIT_MS is 503 with Retry-After; the slots are free again afterwards', async (t) => {
  const holders = [slowUpload(t, port, d.path, d.auth), slowUpload(t, port, e.path, e.auth)];
  await new Promise((r) => setTimeout(r, 300)); // both slots are held now
  const waiter = await slowUpload(t, port, c.path, c.auth).answer;
  t.equal(waiter.status, 503, 'no slot came free in time');
  t.same(JSON.parse(waiter.body), { type: 'unavailable', message: `no large-body slot came free within ${WAIT_MS} ms`, details: [] });
  t.equal(waiter.headers['retry-after'], String(WAIT_MS / 1000), 'with Retry-After');
  t.ok(waiter.ms >= WAIT_MS - 50 && waiter.ms < WAIT_MS + 1500, `after the wait limit (${waiter.ms} ms), not the body timeout`);

  for (const holder of holders) holder.leave();
  const [one, two] = await Promise.all([upload(c), upload(b)]);
  t.equal(one.status, 201, 'the holders left: their slots are free');
  t.equal(two.status, 201, 'both of them: the waiter that timed out kept none');
  t.ok(Math.max(one.ms, two.ms) < 2000, `promptly (${one.ms}, ${two.ms} ms)`);
});
