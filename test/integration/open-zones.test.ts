// A listing in a time zone new to its country is found by open_now as soon as writes are searchable
// (docs/contract.md §12, §18), with the zones remembered as the API remembers them by default
// (OPEN_ZONES_TTL_MS, refreshed in the background): the first open search remembers the zones it
// found, then a listing arrives in a zone no other listing of the test index uses.
import t from 'tap';
import { build, eventually, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();

const place = `Zonehausen ${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!);
const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, [{ start: '00:00', end: '24:00' }]]));
const openNowIds = async () => {
  const res = await app.inject({ url: `/de/listings?street=*&place=${encodeURIComponent(place)}&postCode=*&open_now=true`, headers: owner.auth });
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
  return (res.json().listings as { id: string }[]).map((l) => l.id);
};
const create = async (timeZone: string) => {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ place, phones: [], hours: allDay, time_zone: timeZone }) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
};

t.test('a listing in a zone new to the country is found by open_now within the seconds writes take', async (t) => {
  const berlin = await create('Europe/Berlin');
  await eventually(async () => ((await openNowIds()).includes(berlin) ? true : undefined), 10_000, 'the Berlin listing open now');
  // The zones are remembered now; Chatham (UTC+12:45) is used by no other listing of the test index.
  const chatham = await create('Pacific/Chatham');
  const started = Date.now();
  const found = await eventually(async () => ((await openNowIds()).includes(chatham) ? true : undefined), 5000, 'the Chatham listing open now');
  t.ok(found, `found ${Date.now() - started} ms after its create answered (zones remembered for 30 s, as before, would have hidden it that long)`);
});
