// A listing's history (docs/contract.md §21): what a version costs to keep, and what reading a past
// version costs.
//   npm run bench:history [-- --versions 100 --reads 1000]
//   npm run bench:history -- --versions 10 --reads 50     a smoke run
// Storage: one listing changed `versions` times by name only (PATCH {name}), another replaced
// whole as often (PUT of two listings that share no field, in turn); for each, the bytes a version
// adds to listing_history (the `before` value, and the whole row with its index entry) against the
// JSON of the fields it changed (target: at most 2 × that JSON). Reads: GET ?version=n of the
// name-only listing, n drawn from every version it has, one request at a time (target p50 ≤ 5 ms).
import http from 'node:http';
import { apiUrl, COUNTRY, machineDescription, percentile, startBenchService, type Mode } from './service.js';
import { writeResults } from './results-file.js';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const versions = argument('--versions', 100);
const reads = argument('--reads', 1000);

// No data set is needed beyond the categories `setup` imports: the listings are this bench's own.
const HISTORY: Mode = { name: 'history', listings: 0, seconds: 0, db: 'listings_bench_history', prefix: 'benchhistory-' };

/** Two listings that share no field a write sets: a PUT of one over the other replaces everything. */
const bodies = [
  {
    name: 'Bäckerei Sonnenschein',
    address: 'Hauptstraße 12a',
    zip: '10115',
    place: 'Berlin',
    latitude: 52.52,
    longitude: 13.405,
    keywords: ['Brot', 'Brötchen', 'Kuchen'],
    description: 'Frisches Brot aus dem Steinofen, jeden Morgen ab sechs Uhr.',
    emails: [{ address: 'info@sonnenschein.example' }],
    phones: [{ type: 'landline', number: '+493012345678' }],
    links: [{ type: 'website', url: 'https://sonnenschein.example' }],
    contact: { name: 'Anna', surname: 'Muster', title: '', gender: 'F' },
    hours: { monday: [{ start: '06:00', end: '18:00' }], tuesday: [{ start: '06:00', end: '18:00' }], saturday: [{ start: '07:00', end: '12:00' }] },
    categories: [{ id: 'shop/bakery' }],
    active: true,
  },
  {
    name: 'Café am Markt',
    address: 'Marktplatz 3',
    zip: '80331',
    place: 'München',
    latitude: 48.137,
    longitude: 11.575,
    keywords: ['Kaffee', 'Frühstück'],
    description: 'Kaffee, Frühstück und Mittagstisch am Viktualienmarkt.',
    emails: [{ address: 'hallo@cafe-markt.example' }, { address: 'team@cafe-markt.example' }],
    phones: [{ type: 'mobile', number: '+4915112345678' }],
    links: [{ type: 'instagram', url: 'https://instagram.com/cafemarkt' }],
    contact: { name: 'Bernd', surname: 'Beispiel', title: 'Dr.', gender: 'M' },
    hours: { wednesday: [{ start: '08:00', end: '20:00' }], sunday: [{ start: '09:00', end: '17:00' }] },
    temporarily_closed: { until: null },
    special_hours: [{ date: '2031-12-24', closed: true }],
    categories: [{ id: 'amenity/cafe' }],
    active: false,
  },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request over the keep-alive connection; resolves with the status, the body and the time it took in ms. */
function send(method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; text: string; ms: number }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request(
      apiUrl(path),
      {
        method,
        agent,
        headers: { ...auth, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function write(method: string, path: string, auth: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const res = await send(method, path, auth, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return JSON.parse(res.text) as Record<string, unknown>;
}

const service = await startBenchService(HISTORY);
const { auth, db } = service;

/** The JSON of the fields a version changed, as GET shows them after it: what the bound is measured against. */
const changedJson = (after: Record<string, unknown>, fields: string[]) => Buffer.byteLength(JSON.stringify(Object.fromEntries(fields.map((f) => [f, after[f]]))));

/**
 * Bytes per version of `id` above version 1: its `before`, its row (pg_column_size of the row counts
 * its header; its line pointer adds 4) and its primary key's index entry.
 */
async function storedBytes(id: string) {
  const {
    rows: [row],
  } = await db.query(
    `select avg(pg_column_size(before))::float as before, avg(pg_column_size(h.*) + 4)::float as row
    from listing_history h where listing_id = $1 and version > 1`,
    [id],
  );
  // A B-tree entry of (listing_id, version): an 8-byte index tuple header and two 8-byte keys, plus its 4-byte line pointer.
  return { before: row.before as number, row: row.row as number, index: 28 };
}

async function changeTimes(id: string, change: (i: number) => Promise<Record<string, unknown>>) {
  const sizes: number[] = [];
  for (let i = 1; i <= versions; i++) {
    const after = await change(i);
    const history = (await write('GET', `/${COUNTRY}/listings/${id}/history?limit=1`, auth, undefined)) as { versions: { fields: { field: string }[] }[] };
    sizes.push(
      changedJson(
        after,
        history.versions[0]!.fields.map((f) => f.field).filter((f) => f !== 'version'),
      ),
    );
  }
  return { changedJson: sizes.reduce((a, b) => a + b, 0) / sizes.length, ...(await storedBytes(id)) };
}

const named = (await write('POST', `/${COUNTRY}/listings`, auth, bodies[0])) as { id: string };
const nameOnly = await changeTimes(named.id, (i) => write('PATCH', `/${COUNTRY}/listings/${named.id}`, auth, { name: `Bäckerei Sonnenschein ${i}` }));
const replaced = (await write('POST', `/${COUNTRY}/listings`, auth, bodies[0])) as { id: string };
const whole = await changeTimes(replaced.id, (i) => write('PUT', `/${COUNTRY}/listings/${replaced.id}`, auth, bodies[i % 2]));

const latencies: number[] = [];
for (let i = 0; i < reads; i++) {
  const version = 1 + Math.floor(Math.random() * (versions + 1));
  const res = await send('GET', `/${COUNTRY}/listings/${named.id}?version=${version}`, auth);
  if (res.status !== 200) throw new Error(`GET ?version=${version} answered ${res.status}: ${res.text}`);
  latencies.push(res.ms);
}
await service.stop();
agent.destroy();

const row = (what: string, m: typeof nameOnly) =>
  `| ${what} | ${m.changedJson.toFixed(0)} | ${m.before.toFixed(0)} | ${(m.before / m.changedJson).toFixed(2)} | ${(m.row + m.index).toFixed(0)} | ${((m.row + m.index) / m.changedJson).toFixed(2)} |`;
const section = `${await machineDescription()}
Storage: two listings, each changed ${versions} times: one by name only (PATCH), one replaced whole (PUT of two listings that share no
field, in turn). Per version, on average: the JSON of the fields it changed (their values after it, as GET shows them), the bytes
of its \`before\` (what the history keeps of those fields), and of the whole version: its row with the row header and its primary
key's index entry. Target: at most 2 × the changed fields' JSON.

| Change | changed fields' JSON, bytes | \`before\`, bytes | × JSON | row + index entry, bytes | × JSON |
|---|---|---|---|---|---|
${row('name only', nameOnly)}
${row('whole listing', whole)}

Reads: ${reads} \`GET /${COUNTRY}/listings/:id?version=n\` of the listing with ${versions + 1} versions, n drawn at random, one at a time
over one keep-alive connection (the time from sending to the last byte, in this process): p50 ${percentile(latencies, 50).toFixed(2)} ms,
p99 ${percentile(latencies, 99).toFixed(2)} ms (target p50 ≤ 5 ms).

Reproduce: \`npm run bench:history${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`
`;
writeResults('bench:history', 'history', section);
console.log(section);
process.exit(0);
