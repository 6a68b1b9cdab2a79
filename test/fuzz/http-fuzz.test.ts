// An HTTP fuzz run generated from /openapi.json against the real API process. Every
// answer must be below 500 and every error an Error object; afterwards the process must be alive,
// healthy, and its memory back near where it was once warm. FUZZ_REQUESTS and FUZZ_SEED repeat a
// run (a failing request is printed with the seed that produced it).
import t from 'tap';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { memoryMb } from '../../bench/proc.js';
import { build, listingInput, runId } from '../helper.js';
import { startProcess, waitHealthy } from '../processes.js';
import { fuzzRequests, type FuzzRequest, type OpenApiDocument } from './openapi-requests.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const CONCURRENCY = 8;
const BATCH = 500;
const PORT = 3320;
const baseUrl = `http://127.0.0.1:${PORT}`;

const { app, partner } = await build(t);
const own = await partner();
const other = await partner();
const admin = await partner('admin');

// Rows for the requests to reach: listings of the caller and of another partner, a deleted one,
// an image and a review.
const create = async (auth: Record<string, string>) => (await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json().id as string;
const ownIds = [await create(own.auth), await create(own.auth)];
const otherId = await create(other.auth);
const deletedId = await create(own.auth);
await app.inject({ method: 'DELETE', url: `/de/listings/${deletedId}`, headers: own.auth });
const png = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
const image = (await app.inject({ method: 'POST', url: `/de/listings/${ownIds[0]}/images`, headers: own.auth, payload: { type: 'photo', caption: 'x', base64: png } })).json();
const review = (
  await app.inject({
    method: 'POST',
    url: `/de/listings/${ownIds[0]}/reviews`,
    headers: own.auth,
    payload: { source_id: `fuzz-${runId}`, reviewer: 'R', reviewed: '', title: 'T', text: 'Text', rating: 4, date_time: '2026-01-15T10:30:00+01:00' },
  })
).json();

// The rate limit is raised so that requests reach validation and handlers instead of stopping at 429.
const api = startProcess(
  'src/server.ts',
  { PORT: String(PORT), RATE_LIMIT_MAX: '100000000', IP_RATE_LIMIT_MAX: '100000000' },
  {
    nodeArgs: ['--expose-gc', '--import', fileURLToPath(new URL('memory-probe.mjs', import.meta.url))],
    ipc: true,
  },
);
t.teardown(() => api.stop());
await waitHealthy(`${baseUrl}/healthz`);

const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApiDocument;
const arbitrary = fuzzRequests(doc, {
  countries: ['de', 'at', 'ch'],
  authorizations: [own.auth.authorization, other.auth.authorization, admin.auth.authorization],
  listingIds: [...ownIds, otherId, deletedId],
  subIds: [String(image.id), String(review.id)],
});

/** Resident memory of the API process, from the kernel. */
const rssBytes = () => memoryMb(api.child.pid!).rss * 1024 * 1024;

/** The API's heap in use right after a full garbage collection (see memory-probe.mjs). */
async function heapAfterGc(): Promise<number> {
  const answer = once(api.child, 'message');
  api.child.send('gc');
  const [usage] = (await answer) as [NodeJS.MemoryUsage];
  return usage.heapUsed;
}

const materialize = (body: FuzzRequest['body']) => (typeof body === 'object' ? Buffer.alloc(body.times, body.repeat) : body);

interface Outcome {
  request: FuzzRequest;
  status?: number;
  problem?: string;
}

/** Sends one request; any answer of 5xx, any error answer not shaped `{type, message, details}`, or no answer is a problem. */
async function send(request: FuzzRequest): Promise<Outcome> {
  const body = materialize(request.body);
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
      ...(body !== undefined && request.method !== 'GET' ? { body } : {}),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    // A body far over the limit may be cut off by the server's early 413 before it is all sent.
    if (typeof request.body === 'object' && cause?.code && ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(cause.code)) return { request };
    return { request, problem: `no answer: ${(err as Error).name} ${(err as Error).message} ${cause?.code ?? ''}` };
  }
  const text = await res.text();
  if (res.status >= 500) return { request, status: res.status, problem: `${res.status}: ${text.slice(0, 300)}` };
  if (res.status >= 400) {
    let parsed: { type?: unknown; message?: unknown; details?: unknown } | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* reported below */
    }
    if (typeof parsed?.type !== 'string' || typeof parsed.message !== 'string' || !Array.isArray(parsed.details)) {
      return { request, status: res.status, problem: `${res.status} is not an Error object: ${text.slice(0, 300)}` };
    }
  }
  return { request, status: res.status };
}

const describe = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 200)} headers=${JSON.stringify(r.headers).slice(0, 200)} body=${
    typeof r.body === 'object' ? `<${r.body.times} bytes>` : JSON.stringify(r.body ?? null).slice(0, 300)
  }`;

t.test(`${REQUESTS} generated requests (seed ${SEED}): no 5xx, every error an Error object`, async (t) => {
  const statuses = new Map<number, number>();
  const operations = new Map<string, number>();
  const problems: Outcome[] = [];
  let warmHeap = 0;
  let peakRss = 0;
  let sent = 0;
  const started = Date.now();
  for (let batch = 0; sent < REQUESTS; batch++) {
    const requests = fc.sample(arbitrary, { seed: SEED + batch, numRuns: Math.min(BATCH, REQUESTS - sent) });
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const outcome = await send(requests[next++]!);
          operations.set(outcome.request.operation, (operations.get(outcome.request.operation) ?? 0) + 1);
          if (outcome.status) statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          if (outcome.problem) problems.push(outcome);
        }
      }),
    );
    sent += requests.length;
    peakRss = Math.max(peakRss, rssBytes());
    if (batch === 0) warmHeap = await heapAfterGc();
    if (problems.length > 20) break;
  }
  const seconds = (Date.now() - started) / 1000;
  t.comment(`${sent} requests in ${seconds.toFixed(0)} s over ${operations.size} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.same(
    problems.map((p) => `${p.problem}\n    ${describe(p.request)}`),
    [],
    `no problems (seed ${SEED})`,
  );
  t.ok(sent >= REQUESTS, `${sent} requests sent`);
  t.ok(operations.size >= Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0), 'every documented operation was exercised');
  t.ok(
    [...statuses.keys()].some((s) => s < 300),
    'some requests were valid enough to succeed',
  );

  t.equal(api.child.exitCode, null, 'the API process is alive');
  t.ok((await fetch(`${baseUrl}/healthz`)).ok, 'and healthy');
  // Memory back to normal: after a full collection the heap holds what it held once warm; the
  // 10 MB bodies and deep JSON were garbage, not kept. (RSS is reported; V8 returns it lazily.)
  const heap = await heapAfterGc();
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  t.ok(heap <= warmHeap * 1.5, `heap after GC ${mb(heap)} after the run, ${mb(warmHeap)} once warm; RSS ${mb(rssBytes())} now, ${mb(peakRss)} at peak`);
});

/** Writes raw bytes to the API and returns everything it answers before closing. */
function rawExchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket
      .on('close', () => resolve(answer))
      .on('error', reject)
      .setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

t.test('requests refused by the HTTP layer itself still get Error objects', async (t) => {
  const cases: [string, string, number, string][] = [
    ['headers over 16 KiB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'validation'],
    ['a path segment over 100 characters', `GET /de/listings/${'1'.repeat(150)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414, 'uri_too_long'],
    ['a broken percent-encoding', 'GET /de/listings/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'validation'],
  ];
  for (const [what, request, status, type] of cases) {
    const answer = await rawExchange(request);
    t.match(answer, new RegExp(`^HTTP/1.1 ${status} `), `${what}: ${status}`);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    t.same({ type: body.type, details: body.details }, { type, details: [] }, `${what}: an Error object`);
  }
  t.ok((await fetch(`${baseUrl}/healthz`)).ok, 'the API still answers');
});
