// Every mutating endpoint × {unclaimed, claimed by caller, claimed by another partner} ×
// {partner, admin}, against the table of docs/contract.md §3. After every refusal the listing
// (with its version and offer) must be exactly as before.
import t from 'tap';
import { build, listingInput } from '../helper.js';

const { app, deps, partner } = await build(t);
const owner = await partner();
const callers = { partner: await partner(), admin: await partner('admin') };

type State = 'unclaimed' | 'claimed by caller' | 'claimed by other';
interface Endpoint {
  name: string;
  method: 'PUT' | 'DELETE';
  path: (id: string) => string;
  body?: object;
  allowed: number;
  refusedByOther: number;
}

const endpoints: Endpoint[] = [
  { name: 'PUT listing', method: 'PUT', path: (id) => id, body: listingInput({ name: 'Changed' }), allowed: 200, refusedByOther: 403 },
  { name: 'DELETE listing', method: 'DELETE', path: (id) => id, allowed: 204, refusedByOther: 403 },
  { name: 'PUT claim', method: 'PUT', path: (id) => `${id}/claim`, allowed: 204, refusedByOther: 409 },
  { name: 'DELETE claim', method: 'DELETE', path: (id) => `${id}/claim`, allowed: 204, refusedByOther: 403 },
  { name: 'PUT suppress', method: 'PUT', path: (id) => `${id}/suppress`, allowed: 204, refusedByOther: 409 },
  { name: 'DELETE suppress', method: 'DELETE', path: (id) => `${id}/suppress`, allowed: 204, refusedByOther: 409 },
  { name: 'PUT offer', method: 'PUT', path: (id) => `${id}/offer`, body: { message: 'Offer', url: 'https://example.com/o' }, allowed: 204, refusedByOther: 403 },
  { name: 'DELETE offer', method: 'DELETE', path: (id) => `${id}/offer`, allowed: 204, refusedByOther: 403 },
];

async function listingIn(state: State, caller: { auth: Record<string, string> }): Promise<string> {
  const creator = state === 'claimed by caller' ? caller : owner;
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: creator.auth, payload: listingInput() })).json();
  // A suppressed listing with an offer, so that unsuppress and offer deletes have something to change.
  await app.inject({ method: 'PUT', url: `/de/listings/${id}/suppress`, headers: creator.auth });
  await app.inject({ method: 'PUT', url: `/de/listings/${id}/offer`, headers: creator.auth, payload: { message: 'Before', url: 'https://example.com/b' } });
  if (state === 'unclaimed') await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: owner.auth });
  return id;
}

async function snapshot(id: string) {
  const admin = callers.admin.auth;
  const [listing, offer, row] = await Promise.all([
    app.inject({ url: `/de/listings/${id}`, headers: admin }),
    app.inject({ url: `/de/listings/${id}/offer`, headers: admin }),
    deps.database.pool.query('select version, claimed_by, suppressed, deleted_at from listings where id = $1', [id]),
  ]);
  return { listing: listing.body, offer: offer.body, row: row.rows[0] };
}

for (const [role, caller] of Object.entries(callers)) {
  for (const state of ['unclaimed', 'claimed by caller', 'claimed by other'] as State[]) {
    t.test(`${role} × ${state}`, async (t) => {
      for (const endpoint of endpoints) {
        const id = await listingIn(state, caller);
        const before = await snapshot(id);
        const res = await app.inject({ method: endpoint.method, url: `/de/listings/${endpoint.path(id)}`, headers: caller.auth, ...(endpoint.body ? { payload: endpoint.body } : {}) });
        const refused = state === 'claimed by other' && role === 'partner';
        t.equal(res.statusCode, refused ? endpoint.refusedByOther : endpoint.allowed, endpoint.name);
        if (refused) {
          t.equal(res.json().type, endpoint.refusedByOther === 403 ? 'forbidden' : 'conflict', `${endpoint.name}: type`);
          t.same(await snapshot(id), before, `${endpoint.name}: nothing changed`);
        }
      }
    });
  }
}
