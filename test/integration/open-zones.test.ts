// A listing in a time zone new to its country is found by open_now soon after it became searchable
// (docs/contract.md §12, §18), with the zones remembered as the API remembers them by default
// (OPEN_ZONES_TTL_MS; used for one more period while refreshed in the background, never older): an
// open search remembers the zones it found, then a listing arrives in a zone no other listing of the
// test index uses, and ONE search made two periods after it became searchable must find it.
import t from 'tap';
import { build, config as defaults, eventually, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();

const place = `Zonehausen ${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!);
const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, [{ start: '00:00', end: '24:00' }]]));
const ids = async (query: string) => {
  const res = await app.inject({ url: `/de/listings?street=*&place=${encodeURIComponent(place)}&postCode=*${query}`, headers: owner.auth });
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
  return (res.json().listings as { id: string }[]).map((l) => l.id);
};
const create = async (timeZone: string) => {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ place, phones: [], hours: allDay, time_zone: timeZone }) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
};

t.test('a listing in a zone new to the country is found by open_now at most two zone periods after it became searchable', async (t) => {
  const berlin = await create('Europe/Berlin');
  await eventually(async () => ((await ids('&open_now=true')).includes(berlin) ? true : undefined), 10_000, 'the Berlin listing open now');
  // The zones are remembered now; Chatham (UTC+12:45) is used by no other listing of the test index.
  const chatham = await create('Pacific/Chatham');
  await eventually(async () => ((await ids('')).includes(chatham) ? true : undefined), 10_000, 'the Chatham listing searchable');
  await new Promise((resolve) => setTimeout(resolve, 2 * defaults.OPEN_ZONES_TTL_MS + 50));
  t.ok((await ids('&open_now=true')).includes(chatham), `one open_now search finds it ${2 * defaults.OPEN_ZONES_TTL_MS + 50} ms after it became searchable`);
});
