// The API runs with a capped heap (package.json config.node_flags). A burst of the largest bodies
// the contract allows (8 MiB) must not exhaust it: every request is answered and the process
// lives on (docs/architecture.md, "Memory"). Each body comes with a key of its own: a key sends one
// large body at a time (a second one meanwhile is 429), so only many keys make such a burst.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { memoryMb } from '../../bench/proc.js';
import { build, listingInput } from '../helper.js';
import { startProcess, waitHealthy } from '../processes.js';

const PORT = 3330;
const BURST = 48;
const CONCURRENCY = 2;
const baseUrl = `http://127.0.0.1:${PORT}`;

const { app, partner } = await build(t);
/** One partner per body, each uploading to a listing of its own. */
const uploaders = await Promise.all(
  Array.from({ length: BURST }, async () => {
    const { auth } = await partner();
    const listingId = (await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json().id as string;
    return { auth, listingId };
  }),
);

// The bodies wait their turn however long the burst takes: this test is about memory, not waiting.
const api = startProcess('src/server.ts', {
  PORT: String(PORT),
  RATE_LIMIT_MAX: '100000000',
  IP_RATE_LIMIT_MAX: '100000000',
  LARGE_BODY_CONCURRENCY: String(CONCURRENCY),
  LARGE_BODY_WAIT_MS: '120000',
});
t.teardown(() => api.stop());
await waitHealthy(`${baseUrl}/healthz`);

// Just under the 8 MiB body limit: an image of about 6 MB, over the 5 MiB image limit, so the
// whole body is read, parsed and decoded before the answer (413).
const base64 = randomBytes(6_000_000).toString('base64');
const body = JSON.stringify({ type: 'photo', caption: 'large', base64 });

t.test(`${BURST} concurrent 8 MiB bodies are all answered and the API stays up`, async (t) => {
  t.ok(body.length > 7_900_000 && body.length < 8 * 1024 * 1024, `body of ${body.length} bytes`);
  const before = memoryMb(api.child.pid!).rss;
  const answers = await Promise.all(
    uploaders.map(async ({ auth, listingId }) => {
      const res = await fetch(`${baseUrl}/de/listings/${listingId}/images`, {
        method: 'POST',
        body,
        headers: { ...auth, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(60_000),
      }).catch((err: Error) => ({ status: 0, json: async () => ({ type: err.message }) }));
      return { status: res.status, type: ((await res.json()) as { type: string }).type };
    }),
  );
  t.same(
    answers.filter((a) => a.status !== 413 || a.type !== 'payload_too_large'),
    [],
    'each one answered 413 payload_too_large',
  );
  // Read two at a time, the burst took 100 to 115 MB more; unbounded, 270 to 340 MB.
  const growth = memoryMb(api.child.pid!).peak - before;
  t.ok(growth < 150, `memory grew by ${growth.toFixed(0)} MB, bounded by the bodies read at once`);
  t.equal(api.child.exitCode, null, 'the process is alive');
  t.equal((await fetch(`${baseUrl}/healthz`)).status, 200, 'and healthy');
});
