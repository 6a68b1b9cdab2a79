// Offer writes for the benchmarks. `PUT /:country/listings/:id/offer` (docs/contract.md §7) is a
// real partner write that records an `offer_set` change (src/listings/offers-service.ts) and costs
// far less than a create: one locked row and one change row, no new version, no index job. The
// bench partner writes offers only to listings it created, which it therefore claims
// (docs/contract.md §3), as a partner would.
import { COUNTRY, apiUrl, type Request } from './service.js';

/** Creates `count` listings from `createBody` through the API as the caller of `auth`, one after another; returns their ids. */
export async function createOwnListings(auth: Record<string, string>, createBody: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(apiUrl(`/${COUNTRY}/listings`), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: createBody });
    if (res.status !== 201) throw new Error(`POST /${COUNTRY}/listings answered ${res.status}: ${await res.text()}`);
    ids.push((await res.json() as { id: string }).id);
  }
  return ids;
}

// Each write changes the text, as a partner updating its offer would.
const offerBody = (write: number) => JSON.stringify({ message: `Bench offer ${write}: 10 % off this week`, url: 'https://example.com/offers/bench' });

/**
 * One autocannon request that sets the offer of the next of `ids` each time it is sent. The turn
 * is shared by all connections: autocannon starts every connection at the first entry of a
 * `requests` list, so with a plain list the connections would write the same listing at the same
 * moment and queue on its row lock (src/listings/change-listing.ts), which measures the bench,
 * not the API.
 */
export function offerRotation(ids: string[]): Request {
  if (ids.length === 0) throw new Error('offerRotation needs at least one listing');
  let write = 0;
  const path = (n: number) => `/${COUNTRY}/listings/${ids[n % ids.length]}/offer`;
  return {
    method: 'PUT', path: path(0), body: offerBody(0),
    setupRequest: (request) => {
      write++;
      return { ...request, path: path(write), body: offerBody(write) };
    },
  };
}
