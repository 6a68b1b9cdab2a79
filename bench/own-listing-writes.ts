// Writes to listings the bench partner owns, for the benchmarks: offers (`PUT
// /:country/listings/:id/offer`, docs/contract.md §7: one locked row and one change row, no new
// version, no index job) and whole-listing updates (`PUT /:country/listings/:id`: a new version,
// its sub-objects replaced, an index job). The bench partner writes only to listings it created,
// which it therefore claims (docs/contract.md §3), as a partner would.
import { COUNTRY, apiUrl, type Request } from './service.js';

/** Creates `count` listings from `createBody` through the API as the caller of `auth`, one after another; returns their ids. */
export async function createOwnListings(auth: Record<string, string>, createBody: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(apiUrl(`/${COUNTRY}/listings`), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: createBody });
    if (res.status !== 201) throw new Error(`POST /${COUNTRY}/listings answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/**
 * One autocannon request that PUTs `body(write)` to `path(id)` of the next of `ids` each time it is
 * sent. The turn is shared by all connections: autocannon starts every connection at the first
 * entry of a `requests` list, so with a plain list the connections would write the same listing at
 * the same moment and queue on its row lock (src/listings/change-listing.ts), which measures the
 * bench, not the API.
 */
function putRotation(ids: string[], path: (id: string) => string, body: (write: number) => string): Request {
  if (ids.length === 0) throw new Error('a rotation needs at least one listing');
  let write = 0;
  const pathOf = (n: number) => path(ids[n % ids.length]!);
  return {
    method: 'PUT',
    path: pathOf(0),
    body: body(0),
    setupRequest: (request) => {
      write++;
      return { ...request, path: pathOf(write), body: body(write) };
    },
  };
}

/** Sets the offer of each of `ids` in turn; each write changes the text, as a partner updating its offer would. */
export const offerRotation = (ids: string[]): Request =>
  putRotation(
    ids,
    (id) => `/${COUNTRY}/listings/${id}/offer`,
    (write) => JSON.stringify({ message: `Bench offer ${write}: 10 % off this week`, url: 'https://example.com/offers/bench' }),
  );

/** Replaces each of `ids` in turn with `listing` (a create's body), its name numbered by the write, as a partner's sync would. */
export function updateRotation(ids: string[], listing: string): Request {
  const fields = JSON.parse(listing) as { name: string };
  return putRotation(
    ids,
    (id) => `/${COUNTRY}/listings/${id}`,
    (write) => JSON.stringify({ ...fields, name: `${fields.name} ${write}` }),
  );
}

/**
 * PUTs each of `ids` in turn with `listing` exactly as it was created: a write that changes nothing,
 * which commits nothing (docs/contract.md §20): the no-op path's cost against a real update's.
 */
export const unchangedRotation = (ids: string[], listing: string): Request =>
  putRotation(
    ids,
    (id) => `/${COUNTRY}/listings/${id}`,
    () => listing,
  );
