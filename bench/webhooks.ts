// Webhook delivery lag: real partner writes at a steady rate through the API, each change
// delivered by the indexer to a local receiver; lag = arrival time − the change's `at` (the
// PostgreSQL clock when the write recorded it inside its transaction, shortly before the commit;
// same machine). Writes a section of bench/RESULTS.md.
// `--writes` picks the writes: `creates` (POST a listing → `created`), `offers` (PUT the offer of
// one of the listings the bench partner created before subscribing → `offer_set`), or `mix`, the
// default: a quarter creates, the rest offers (CREATE_SHARE says why).
//   npm run bench:webhooks                                           30 s at 200 writes/s, mixed
//   npm run bench:webhooks -- --writes creates                       creates only: capped by the API's create rate
//   npm run bench:webhooks -- --seconds 60 --rate 300 --writes offers
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChangeKind } from '../src/changes/change-kinds.js';
import { createOwnListings, offerRotation } from './own-listing-writes.js';
import { COUNTRY, QUICK, apiUrl, benchRequests, load, machineDescription, outboxBacklog, percentile, sleep, startBenchService, type Measured, type Request } from './service.js';
import { writeResults } from './results-file.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/**
 * Share of the requested rate sent as creates; offer writes make up the rest. On 2 shared cores
 * creates are what bounds the write rate (bench/RESULTS.md, "request path"): creates alone, or half
 * of a mix, would take the whole machine, leaving nothing for the offers, the indexer and the
 * receiver. A quarter keeps creates, the writes that
 * also pass through the outbox and the index, at about half their ceiling; offer writes (one
 * locked row, no version, no index job) make up the rate.
 */
const CREATE_SHARE = { creates: 1, offers: 0, mix: 0.25 } as const;
type Writes = keyof typeof CREATE_SHARE;
const isWrites = (value: string): value is Writes => Object.hasOwn(CREATE_SHARE, value);

/** Listings the offer writes rotate over: far more than the writes in flight, so none waits for another's row lock. */
const OFFER_LISTINGS = 200;

const SECONDS = Number(arg('seconds') ?? 30);
const RATE = Number(arg('rate') ?? 200);
const WRITES = arg('writes') ?? 'mix';
if (!isWrites(WRITES)) throw new Error(`--writes must be one of ${Object.keys(CREATE_SHARE).join(', ')}, not ${WRITES}`);

// The receiver is on 127.0.0.1, which the target guard refuses unless told (docs/partners/sync-and-webhooks.md).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
const service = await startBenchService(QUICK);
const { auth, db } = service;
const { createBody } = await benchRequests(db);

/** One kind of write: the change it records, what is sent, and at what rate. */
interface WriteLoad {
  kind: ChangeKind;
  sent: string;
  rate: number;
  requests: Request[];
}
const createRate = Math.round(RATE * CREATE_SHARE[WRITES]);
const offerRate = RATE - createRate;
const loads: WriteLoad[] = [];
if (createRate > 0) {
  loads.push({ kind: 'created', sent: `POST /${COUNTRY}/listings`, rate: createRate, requests: [{ method: 'POST', path: `/${COUNTRY}/listings`, body: createBody }] });
}
if (offerRate > 0) {
  const ids = await createOwnListings(auth, createBody, OFFER_LISTINGS);
  loads.push({
    kind: 'offer_set',
    sent: `PUT /${COUNTRY}/listings/:id/offer over ${OFFER_LISTINGS} listings the bench partner created (so claims) before subscribing`,
    rate: offerRate,
    requests: [offerRotation(ids)],
  });
  // Those creates are indexed before the measurement starts, so their index jobs do not compete with it.
  const indexedBy = Date.now() + 60_000;
  while ((await outboxBacklog(db)) > 0 && Date.now() < indexedBy) await sleep(200);
}

/** First arrival of each message, keyed by message id: its kind, its change time and when it arrived. */
const arrivals = new Map<string, { kind: string; at: number; received: number }>();
/** Every POST the receiver got, per kind: first arrivals and duplicates. */
const posts = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const received = Date.now();
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; at: string };
    posts.set(message.type, (posts.get(message.type) ?? 0) + 1);
    if (message.type !== 'ping' && !arrivals.has(message.id)) arrivals.set(message.id, { kind: message.type, at: Date.parse(message.at), received });
    res.writeHead(204).end();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const { port } = receiver.address() as AddressInfo;

// Subscribed after the setup's creates: a subscription receives only later changes (docs/contract.md §15).
const events = loads.map((l) => l.kind);
const created = await fetch(apiUrl('/webhooks'), {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events, countries: [COUNTRY], scope: 'all' }),
});
if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}: ${await created.text()}`);
const webhook = (await created.json()) as { id: string };

/**
 * The changes the subscription matches, per kind: the messages the receiver must get. The rule of
 * receivesChange (src/webhooks/webhook-messages.ts) for an admin's subscription of scope `all`.
 */
async function matchedChanges(webhookId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ kind: string; count: number }>(
    `select c.kind, count(*)::int as count
    from listing_changes c join webhooks w on w.id = $1
    where c.country = any(w.countries) and c.kind = any(w.events) and c.at >= w.created_at
    group by c.kind`,
    [webhookId],
  );
  return new Map(rows.map((r) => [r.kind, r.count]));
}

// Each kind has its own autocannon run and connections, so each keeps its own rate and is measured apart.
const measured: Measured[] = await Promise.all(loads.map((l) => load({ url: apiUrl(''), headers: auth, requests: l.requests, seconds: SECONDS, overallRate: l.rate })));
// Writes in flight when autocannon stopped still commit, uncounted by it: let them, then count in PostgreSQL what must arrive.
await sleep(2000);
const expected = await matchedChanges(webhook.id);
const expectedTotal = [...expected.values()].reduce((a, b) => a + b, 0);
// Wait for the tail: until every message arrived, or nothing new came for 30 s.
let lastCount = -1;
let quietSince = Date.now();
while (arrivals.size < expectedTotal && Date.now() - quietSince < 30_000) {
  if (arrivals.size !== lastCount) {
    lastCount = arrivals.size;
    quietSince = Date.now();
  }
  await sleep(200);
}

await fetch(apiUrl(`/webhooks/${webhook.id}`), { method: 'DELETE', headers: auth });
receiver.close();
await service.stop();

/** One line of the table: the writes of `kinds` and their messages. */
function row(label: string, kinds: ChangeKind[], runs: Measured[]): string {
  const mine = [...arrivals.values()].filter((a) => (kinds as string[]).includes(a.kind));
  const lags = mine.map((a) => a.received - a.at).sort((a, b) => a - b);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const written = sum(runs.map((m) => m.requests));
  const errors = sum(runs.map((m) => m.errors));
  const perSecond = sum(runs.map((m) => m.rps)).toFixed(0);
  const expectedMessages = sum(kinds.map((k) => expected.get(k) ?? 0));
  const duplicates = sum(kinds.map((k) => posts.get(k) ?? 0)) - mine.length;
  return `| ${label} | ${written} | ${perSecond} | ${errors} | ${expectedMessages} | ${mine.length} | ${duplicates} | ${percentile(lags, 50)} | ${percentile(lags, 99)} | ${lags.at(-1) ?? NaN} |`;
}
const rows = loads.map((l, i) => row(`\`${l.kind}\``, [l.kind], [measured[i]!]));
if (loads.length > 1) rows.push(row('all', events, measured));
const totalRps = measured.reduce((n, m) => n + m.rps, 0);

const section = `${await machineDescription()}
Writes (\`--writes ${WRITES}\`), ${SECONDS} s at ${RATE}/s requested: ${loads.map((l) => `${l.rate}/s ${l.sent}`).join('; ')}.
Reached ${totalRps.toFixed(0)} writes/s${loads.length > 1 ? ` (${loads.map((l, i) => `\`${l.kind}\` ${measured[i]!.rps.toFixed(0)}/s`).join(', ')})` : ''}.
Each change is delivered by the indexer to a local receiver (subscription scope \`all\`, country \`${COUNTRY}\`, events ${events.map((e) => `\`${e}\``).join(', ')}).
Messages expected: the changes the subscription matches, counted in PostgreSQL after the load (writes still in flight when autocannon
stopped included); arrived: distinct message ids; duplicates: further POSTs of a message already received.
Lag = arrival at the receiver − the change's \`at\`: sequencing, dispatch (\`WEBHOOK_DISPATCH_INTERVAL_MS\`), queue and the POST.

| Change kind | writes answered | writes/s | errors | messages expected | arrived | duplicates | lag p50 ms | p99 ms | max ms |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Reproduce: \`npm run bench:webhooks -- --seconds ${SECONDS} --rate ${RATE} --writes ${WRITES}\`
`;
writeResults('bench:webhooks', `webhooks, ${WRITES}`, section);
console.log(section);
process.exit(0);
