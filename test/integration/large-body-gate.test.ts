// Slow clients against the large-body gate (src/plugins/large-body-gate.ts), over real sockets:
// requests without a valid key or to unknown routes are answered before their body is read and
// never take a slot; an authenticated client that sends too slowly loses its slot after
// LARGE_BODY_TIMEOUT_MS. Either way a partner's upload goes through. Fairness between keys (one
// slot per key, a bounded wait): test/http/large-body-fairness.test.ts.
import t from 'tap';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { generateApiKey } from '../../src/partners/api-keys.js';
import { build, listingInput } from '../helper.js';
import { slowUpload as rawSlowUpload } from '../raw-clients.js';

const BODY_TIMEOUT_MS = 1500;
// Bodies over 1 KiB count as large, so that a small real image is gated like a big one.
// The upload may wait for the slow clients' whole deadline here.
const { app, partner } = await build(t, { config: { LARGE_BODY_BYTES: 1024, LARGE_BODY_CONCURRENCY: 2, LARGE_BODY_TIMEOUT_MS: BODY_TIMEOUT_MS, LARGE_BODY_WAIT_MS: BODY_TIMEOUT_MS + 3000 } });
const own = await partner();
// Two other partners, each sending one slow body: a key holds one slot at most.
const slowKeys = [await partner(), await partner()];
const listingId = (await app.inject({ method: 'POST', url: '/de/listings', headers: own.auth, payload: listingInput() })).json().id as string;
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const image = JSON.stringify({
  type: 'photo',
  caption: 'x'.repeat(500),
  base64: readFileSync(new URL('../fixtures/images/tiny.jpg', import.meta.url)).toString('base64'),
});

const slowUpload = (path: string, headers: Record<string, string> = {}) => rawSlowUpload(t, port, path, headers).answer;

async function upload() {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}/de/listings/${listingId}/images`, {
    method: 'POST',
    body: image,
    headers: { ...own.auth, 'content-type': 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, ms: Date.now() - started };
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms))]);

t.test('slow big bodies without a key or to unknown routes are refused unread and do not delay an upload', async (t) => {
  const attackers = [
    ['/de/listings/1/images', {}],
    [`/de/listings/${listingId}/images`, {}],
    [`/de/listings/${listingId}/images`, { authorization: `Bearer ${generateApiKey()}` }],
    ['/nope', {}],
    ['/de/nope', { authorization: own.auth.authorization }],
  ] as const;
  const answers = attackers.map(([path, headers]) => slowUpload(path, headers));
  await new Promise((r) => setTimeout(r, 300));
  t.ok(image.length > 1024, 'the upload is a large body');
  const { status, ms } = await upload();
  t.equal(status, 201, `the upload is served (${ms} ms)`);
  t.ok(ms < 2000, 'without waiting for the slow clients');
  for (const [i, answer] of answers.entries()) {
    const got = await within(answer, 2000, attackers[i]![0]);
    const expected = attackers[i]![0].includes('nope') ? 404 : 401;
    t.equal(got.status, expected, `${attackers[i]![0]}: ${expected}`);
    t.equal(JSON.parse(got.body).type, expected === 404 ? 'not_found' : 'unauthorized', 'an Error object');
    t.equal(got.headers.connection, 'close', 'the connection is closed after the answer, the body never read');
  }
});

t.test('a slow authenticated client loses its slot after LARGE_BODY_TIMEOUT_MS', async (t) => {
  const slow = slowKeys.map((key) => slowUpload(`/de/listings/${listingId}/images`, key.auth));
  await new Promise((r) => setTimeout(r, 300)); // both hold a slot now
  const started = Date.now();
  const { status, ms } = await upload();
  t.equal(status, 201, `the upload is served once the slow clients timed out (${ms} ms)`);
  t.ok(ms < BODY_TIMEOUT_MS + 2000, 'within the body timeout and a margin');
  for (const answer of slow) {
    const got = await within(answer, BODY_TIMEOUT_MS + 2000, 'the slow client');
    t.equal(got.status, 408, '408 for the slow client');
    t.same(JSON.parse(got.body), { type: 'request_timeout', message: `the request body did not arrive within ${BODY_TIMEOUT_MS} ms`, details: [] });
    t.equal(got.headers.connection, 'close', 'and its connection closed');
    t.ok(got.ms < BODY_TIMEOUT_MS + 1500, `answered after ${got.ms} ms`);
  }
  t.ok(Date.now() - started < BODY_TIMEOUT_MS + 3000);
});
