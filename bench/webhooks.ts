// Webhook delivery lag: listings created at a steady rate through the API, each change delivered
// by the indexer to a local receiver; lag = arrival time − the change's `at` (its commit-time
// clock in PostgreSQL, same machine). Writes a section of bench/RESULTS.md.
//   npm run bench:webhooks                              30 s at 200 writes/s
//   npm run bench:webhooks -- --seconds 60 --rate 300
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUICK, apiUrl, benchRequests, load, machineDescription, sleep, startBenchService, writeResultsSection } from './service.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 30);
const RATE = arg('rate', 200);

// The receiver is on 127.0.0.1, which the target guard refuses unless told (README "For partners: webhooks").
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
const service = await startBenchService(QUICK);
const { auth } = service;
const { createBody } = await benchRequests(service.db);

/** First arrival of each message: its change time and when it arrived. */
const arrivals = new Map<string, { at: number; received: number }>();
let requests = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const received = Date.now();
    requests++;
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; at: string };
    if (message.type !== 'ping' && !arrivals.has(message.id)) arrivals.set(message.id, { at: Date.parse(message.at), received });
    res.writeHead(204).end();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const { port } = receiver.address() as AddressInfo;

const created = await fetch(apiUrl('/webhooks'), {
  method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['created'], countries: ['de'], scope: 'all' }),
});
if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}: ${await created.text()}`);
const webhook = await created.json() as { id: string };

const measured = await load({ url: apiUrl('/de/listings'), method: 'POST', body: createBody, headers: auth, seconds: SECONDS, overallRate: RATE });
const expected = measured.requests - measured.errors;
// Wait for the tail: until every create arrived, or nothing new came for 30 s.
let lastCount = -1;
let quietSince = Date.now();
while (arrivals.size < expected && Date.now() - quietSince < 30_000) {
  if (arrivals.size !== lastCount) {
    lastCount = arrivals.size;
    quietSince = Date.now();
  }
  await sleep(200);
}

await fetch(apiUrl(`/webhooks/${webhook.id}`), { method: 'DELETE', headers: auth });
receiver.close();
await service.stop();

const lags = [...arrivals.values()].map((a) => a.received - a.at).sort((a, b) => a - b);
const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))] ?? NaN;
const section = `## webhooks — ${new Date().toISOString().slice(0, 16)}Z

${await machineDescription()}
${measured.requests.toLocaleString('en')} creates in ${SECONDS} s at ${RATE}/s requested (${measured.rps.toFixed(0)}/s reached, ${measured.errors} errors),
each a \`created\` change delivered by the indexer to a local receiver (subscription scope \`all\`, country \`de\`).
Lag = arrival at the receiver − the change's \`at\`: sequencing, dispatch (\`WEBHOOK_DISPATCH_INTERVAL_MS\`), queue and the POST.

| Messages expected | arrived | duplicates | lag p50 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| ${expected} | ${arrivals.size} | ${requests - arrivals.size} | ${pct(50)} | ${pct(99)} | ${lags.at(-1) ?? NaN} |

Reproduce: \`npm run bench:webhooks -- --seconds ${SECONDS} --rate ${RATE}\`
`;
writeResultsSection('webhooks', section);
console.log(section);
process.exit(0);
