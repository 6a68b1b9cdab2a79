import t from 'tap';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const { auth } = await partner();
const word = `supp${runId.replace(/\d/g, 'x')}`;

t.test('a suppressed listing leaves every search; unsuppressed it comes back', async (t) => {
  const { id } = (
    await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ name: `${word} Laden`, phones: [{ type: 'landline', number: '+4930987654321' }] }) })
  ).json();
  const searches = [`ids=${id}`, `solr=true&what=${word}`, 'phone=%2B4930987654321'];
  const found = async () =>
    Promise.all(searches.map(async (q) => (await app.inject({ url: `/de/listings?${q}`, headers: auth })).json().listings.some((l: { id: string; lid?: number }) => String(l.lid ?? l.id) === id)));
  await eventually(async () => ((await found()).every(Boolean) ? true : undefined), INDEXED_WITHIN_MS, 'the listing in every search');

  t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${id}/suppress`, headers: auth })).statusCode, 204);
  await eventually(async () => ((await found()).every((f) => !f) ? true : undefined), INDEXED_WITHIN_MS, 'the listing to leave every search');

  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/suppress`, headers: auth })).statusCode, 204);
  await eventually(async () => ((await found()).every(Boolean) ? true : undefined), INDEXED_WITHIN_MS, 'the listing to come back');
});
