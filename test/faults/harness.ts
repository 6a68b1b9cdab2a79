// Fault-injection harness: real API and indexer processes, a stream of mixed writes
// through HTTP that retries until each write is acknowledged, and the checks that every
// acknowledged write reached OpenSearch exactly as PostgreSQL holds it and every change reached
// a webhook receiver.
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { count, isNull } from 'drizzle-orm';
import { reconcileCountry } from '../../indexer/reconcile.js';
import { outbox } from '../../src/db/schema.js';
import type { ApiDeps } from '../../src/http/deps.js';
import { eventually, indexedDocument, listingInput, names } from '../helper.js';
import type { Received } from '../webhook-receiver.js';

export interface Expected {
  deleted: boolean;
  suppressed: boolean;
  name: string;
}

/**
 * Sends `total` mixed writes (create, update, delete, claim, suppress) and retries each one until
 * it is acknowledged with 2xx (a 404 after a retried DELETE also counts: it was done). POSTs carry
 * an Idempotency-Key, so a retry after a lost answer never creates a second listing.
 * `concurrency` clients write at once, each on listings of its own, so that every listing's
 * writes stay in order and the expected state is exact; `onProgress` sees the total so far.
 */
export async function writeStream(opts: {
  baseUrl: () => string;
  auth: Record<string, string>;
  total: number;
  country: string;
  concurrency?: number;
  onProgress?: (done: number) => Promise<void> | void;
}) {
  const concurrency = opts.concurrency ?? 4;
  let done = 0;
  const clients = await Promise.all(
    Array.from({ length: concurrency }, (_, c) =>
      clientStream({ ...opts, total: Math.floor(opts.total / concurrency) + (c < opts.total % concurrency ? 1 : 0), onWrite: () => opts.onProgress?.(++done) }),
    ),
  );
  return {
    expected: new Map(clients.flatMap((c) => [...c.expected])),
    retries: clients.reduce((n, c) => n + c.retries, 0),
  };
}

async function clientStream(opts: { baseUrl: () => string; auth: Record<string, string>; total: number; country: string; onWrite: () => Promise<void> | void }) {
  const expected = new Map<string, Expected>();
  const live = () => [...expected.entries()].filter(([, e]) => !e.deleted).map(([id]) => id);
  let retries = 0;

  async function send(method: string, path: string, body?: object, headers: Record<string, string> = {}) {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${opts.baseUrl()}/${opts.country}/listings${path}`, {
          method,
          headers: { ...opts.auth, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(10_000),
        });
        if (res.status < 300 || (attempt > 0 && method === 'DELETE' && res.status === 404)) return res;
        const text = await res.text();
        // A create whose process died holds its Idempotency-Key until the lease runs out: a client
        // retries after Retry-After, as for 429 and 5xx.
        const inProgress = res.status === 409 && text.includes('state: in_progress');
        if (res.status < 500 && res.status !== 429 && !inProgress) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      } catch (err) {
        if ((err as Error).message.startsWith(method)) throw err;
      }
      retries++;
      await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** Math.min(attempt, 5))));
    }
  }

  for (let i = 0; i < opts.total; i++) {
    const ids = live();
    const roll = ids.length < 20 ? 0 : Math.random();
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    if (roll < 0.35) {
      const name = `Fault ${randomUUID().slice(0, 8)}`;
      const res = await send('POST', '', listingInput({ name, categories: [{ id: 'shop/bakery' }] }), { 'idempotency-key': randomUUID() });
      expected.set(((await res.json()) as { id: string }).id, { deleted: false, suppressed: false, name });
    } else if (roll < 0.6) {
      const name = `Fault ${randomUUID().slice(0, 8)}`;
      await send('PUT', `/${id}`, listingInput({ name, categories: [{ id: 'shop/bakery' }] }));
      expected.get(id)!.name = name;
    } else if (roll < 0.75) {
      const suppressed = Math.random() < 0.5;
      await send(suppressed ? 'PUT' : 'DELETE', `/${id}/suppress`);
      expected.get(id)!.suppressed = suppressed;
    } else if (roll < 0.88) {
      await send(Math.random() < 0.5 ? 'PUT' : 'DELETE', `/${id}/claim`);
    } else {
      await send('DELETE', `/${id}`);
      expected.get(id)!.deleted = true;
    }
    await opts.onWrite();
  }
  return { expected, retries };
}

/** Waits until the outbox has no pending event, then checks the index against PostgreSQL and the client's view. */
export async function assertConverged(deps: ApiDeps, country: string, expected: Map<string, Expected>) {
  await eventually(
    async () => {
      const [row] = await deps.database.db.select({ n: count() }).from(outbox).where(isNull(outbox.processedAt));
      return row!.n === 0 ? true : undefined;
    },
    120_000,
    'the outbox to drain',
  );
  const { differences } = await reconcileCountry({ db: deps.database.db, opensearch: deps.opensearch, names }, country);
  const wrong: string[] = [];
  for (const [id, e] of expected) {
    const doc = await indexedDocument(deps, country, id);
    if (e.deleted ? doc !== null : doc?.source.name !== e.name || doc?.source.suppressed !== e.suppressed) {
      wrong.push(`${id}: expected ${JSON.stringify(e)}, index has ${JSON.stringify(doc && { name: doc.source.name, suppressed: doc.source.suppressed })}`);
    }
  }
  return { differences, wrong };
}

/**
 * What PostgreSQL and the index hold for every acknowledged write: `notInPostgres` lists listings
 * whose row differs from what the client was told (name, suppression, deletion), `wrongVersion`
 * live listings whose document carries another version than the row. Call after assertConverged.
 */
export async function acknowledgedWritesKept(deps: ApiDeps, country: string, expected: Map<string, Expected>) {
  const rows = await deps.database.pool.query<{ id: string; name: string; suppressed: boolean; deleted: boolean; version: string }>(
    'select id, name, suppressed, deleted_at is not null as deleted, version from listings where id = any($1::bigint[])',
    [[...expected.keys()]],
  );
  const byId = new Map(rows.rows.map((r) => [String(r.id), r]));
  const notInPostgres: string[] = [];
  const wrongVersion: string[] = [];
  for (const [id, e] of expected) {
    const row = byId.get(id);
    if (!row || row.deleted !== e.deleted || (!e.deleted && (row.name !== e.name || row.suppressed !== e.suppressed))) {
      notInPostgres.push(`${id}: expected ${JSON.stringify(e)}, PostgreSQL has ${JSON.stringify(row ?? null)}`);
      continue;
    }
    if (e.deleted) continue;
    const doc = await indexedDocument(deps, country, id);
    if (doc?.version !== Number(row.version)) wrongVersion.push(`${id}: version ${row.version} in PostgreSQL, ${doc?.version ?? 'no document'} in the index`);
  }
  return { notInPostgres, wrongVersion };
}

/**
 * The cluster suites' verdict after a run of acknowledged writes: reconcile agrees, every write is
 * in the index and in PostgreSQL, and every live listing is indexed at its version.
 */
export async function assertNothingLost(t: Test, deps: ApiDeps, country: string, expected: Map<string, Expected>, retries: number) {
  const { differences, wrong } = await assertConverged(deps, country, expected);
  t.same(differences, [], 'reconcile: PostgreSQL and OpenSearch agree on ids and versions');
  t.same(wrong, [], `every acknowledged write is in the index (${expected.size} listings, ${retries} retried requests)`);
  const { notInPostgres, wrongVersion } = await acknowledgedWritesKept(deps, country, expected);
  t.same(notInPostgres, [], 'every acknowledged write is in PostgreSQL');
  t.same(wrongVersion, [], 'every live listing is in the index at its version');
}

/**
 * No webhook message lost (docs/contract.md §15): waits until every change committed so far that
 * subscription `webhookId` matches is fanned out and none of its deliveries is pending, then checks
 * that each change has exactly one delivery, each delivery is delivered, and `received` (the
 * receiver's requests) holds every delivery's message id. Duplicates are counted, not failed:
 * delivery is at least once. The SQL mirrors receivesChange (src/webhooks/webhook-messages.ts).
 */
export async function assertWebhooksDelivered(t: Test, deps: ApiDeps, webhookId: string, received: Received[]) {
  const pool = deps.database.pool;
  // Every write of the scenario has committed: its changes are at or below the newest id now.
  const {
    rows: [last],
  } = await pool.query<{ id: string }>('select coalesce(max(id), 0) as id from listing_changes');
  const throughId = last!.id;
  const { changes, deliveries } = await eventually(
    async () => {
      const {
        rows: [matched],
      } = await pool.query<{ changes: number; undispatched: number }>(
        `
      with subscription as (
        select w.*, p.role from webhooks w join partners p on p.id = w.partner_id where w.id = $1
      ), matched as (
        select c.seq from listing_changes c, subscription w
        where c.id <= $2 and c.country = any(w.countries) and ('*' = any(w.events) or c.kind = any(w.events))
          and (w.scope = 'all' or c.claimed_by = w.partner_id)
          and (c.visible_to is null or c.visible_to = w.partner_id or w.role = 'admin')
          and c.at >= w.created_at
      )
      select count(*)::int as changes,
        count(*) filter (where seq is null or seq > coalesce((select last_seq from webhook_dispatch_state where id = 1), 0))::int as undispatched
      from matched`,
        [webhookId, throughId],
      );
      const { rows } = await pool.query<{ public_id: string; status: string }>('select public_id, status from webhook_deliveries where webhook_id = $1 and change_id <= $2', [webhookId, throughId]);
      if (matched!.undispatched > 0 || rows.some((r) => r.status === 'pending')) return undefined;
      return { changes: matched!.changes, deliveries: rows };
    },
    60_000,
    'every webhook delivery to be fanned out and finished',
  );
  const ids = new Set(deliveries.map((d) => d.public_id));
  const arrivals = received.filter((r) => ids.has(r.message.id));
  const notDelivered = deliveries.filter((d) => d.status !== 'delivered').map((d) => `${d.public_id}: ${d.status}`);
  const arrived = new Set(arrivals.map((r) => r.message.id));
  const missing = [...ids].filter((id) => !arrived.has(id));
  t.ok(changes > 0, "the subscription matched the scenario's changes (a check of nothing would pass)");
  t.equal(deliveries.length, changes, `the dispatcher fanned every matching change out once (${changes} changes so far)`);
  t.same(notDelivered.slice(0, 20), [], `every delivery is delivered (${notDelivered.length} are not)`);
  t.same(missing.slice(0, 20), [], `the receiver got every message (${missing.length} missing, ${arrivals.length - arrived.size} duplicates so far)`);
}
