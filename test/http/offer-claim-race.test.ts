// Offers are written under the listing lock like every other write (docs/contract.md §3): a claim
// that commits while another partner's offer is on its way must win over that offer.
import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { build, eventually, listingInput } from '../helper.js';

// No lock timeout: the request under test waits on a lock the test holds while it looks around.
const { app, deps, partner } = await build(t, { config: { DB_LOCK_TIMEOUT_MS: 0 } });
const alice = await partner();
const bob = await partner();
const offer = { message: 'Zwei Brötchen gratis', url: 'https://example.com/offer' };
const offerCall = (method: 'PUT' | 'DELETE' | 'GET', id: string, auth: Record<string, string>) =>
  app.inject({ method, url: `/de/listings/${id}/offer`, headers: auth, ...(method === 'PUT' ? { payload: offer } : {}) });

async function unclaimedListing(): Promise<string> {
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput() })).json();
  const unclaim = await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: alice.auth });
  if (unclaim.statusCode !== 204) throw new Error(`unclaim answered ${unclaim.statusCode}`);
  return id;
}

/**
 * Runs `request` while a transaction claims the listing for alice exactly as claims-service.ts
 * does (row locked, claimed_by set), and commits that claim only once the request waits on it
 * or has finished without waiting. Returns the request's answer.
 */
async function duringClaim(id: string, request: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const client = await deps.database.pool.connect();
  try {
    await client.query('begin');
    await client.query('select id from listings where id = $1 for update', [id]);
    await client.query('update listings set claimed_by = $1 where id = $2', [alice.id, id]);
    const claimer = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    let answered = false;
    const pending = request().finally(() => {
      answered = true;
    });
    await eventually(
      async () => {
        if (answered) return true;
        const waiting = await deps.database.pool.query('select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [claimer]);
        return waiting.rows[0].n > 0 ? true : undefined;
      },
      5000,
      'the request to wait on the claim or to finish',
    );
    await client.query('commit');
    return await pending;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

t.test('PUT offer by another partner while a claim commits: 403, no offer stored (every round)', async (t) => {
  for (let round = 0; round < 10; round++) {
    const id = await unclaimedListing();
    const res = await duringClaim(id, () => offerCall('PUT', id, bob.auth));
    t.equal(res.statusCode, 403, `round ${round}: ${res.body}`);
    t.equal(res.json().type, 'forbidden');
    t.equal((await offerCall('GET', id, alice.auth)).statusCode, 404, `round ${round}: no offer on alice's listing`);
  }
});

t.test('DELETE offer by another partner while a claim commits: 403, the offer stays (every round)', async (t) => {
  for (let round = 0; round < 10; round++) {
    const id = await unclaimedListing();
    t.equal((await offerCall('PUT', id, bob.auth)).statusCode, 204, 'allowed while unclaimed');
    const res = await duringClaim(id, () => offerCall('DELETE', id, bob.auth));
    t.equal(res.statusCode, 403, `round ${round}: ${res.body}`);
    t.equal((await offerCall('GET', id, alice.auth)).statusCode, 200, `round ${round}: the offer is still there`);
  }
});
