// POST /:country/listings/match against the real API, index and indexer (docs/contract.md §17).
import t from 'tap';
import { build, eventually, indexedDocument, listingInput, refreshEveryCopy, runId, startIndexer } from '../helper.js';
import type { ListingInput } from '../../src/schemas/listing.js';
import type { MatchCandidateResult, MatchRequest } from '../../src/schemas/match.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();
const stranger = await partner();

// A surname no other listing has (the run id spelt in letters) and a phone number of this run.
const surname = `Mtch${runId.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!).replace(/[^a-z]/g, 'x')}`;
const name = `Bäckerei ${surname}`;
const nationalNumber = `30${String(parseInt(runId, 16) % 100_000_000).padStart(8, '7')}`;
const phone = `+49${nationalNumber}`;
const home = { address: 'Hauptstraße 12a', zip: '10115', place: 'Berlin', latitude: 52.52, longitude: 13.405 };

async function create(overrides: Partial<ListingInput>) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput(overrides) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return (res.json() as { id: string }).id;
}

const match = (body: Record<string, unknown>, auth = stranger.auth) => app.inject({ method: 'POST', url: '/de/listings/match', headers: auth, payload: body });

const candidatesFor = async (body: MatchRequest) => {
  const res = await match(body);
  if (res.statusCode !== 200) throw new Error(`match answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { candidates: MatchCandidateResult[] }).candidates;
};

const listingId = await create({
  name: `${name} GmbH`,
  ...home,
  phones: [{ type: 'landline', number: phone }],
  links: [{ type: 'website', url: `https://www.${surname.toLowerCase()}.example/` }],
});
// The same name 2 km north: a branch, another listing.
const branchId = await create({ name: `${name} GmbH`, address: 'Zwillingsweg 1', zip: '10115', place: 'Berlin', latitude: 52.538, longitude: 13.405, phones: [] });
// A listing in the same street that its owner suppresses: it must never be a candidate.
const suppressedName = `Konditorei ${surname}`;
const suppressedId = await create({ name: suppressedName, ...home, address: 'Hauptstraße 14', phones: [] });
// Set-up, not an assertion: an assertion on the root test before its subtests lets tap end it
// (and close the app) while this module still awaits.
const suppressed = await app.inject({ method: 'PUT', url: `/de/listings/${suppressedId}/suppress`, headers: owner.auth });
if (suppressed.statusCode !== 204) throw new Error(`suppress failed: ${suppressed.statusCode} ${suppressed.body}`);

// Searchable within the 2 s of docs/contract.md §12: poll until the copy finds the listing.
await eventually(
  async () => {
    const candidates = await candidatesFor({ name: `${name} GmbH`, ...home });
    return candidates[0]?.id === listingId ? true : undefined;
  },
  5000,
  'the listing to be matchable',
);
await eventually(async () => ((await indexedDocument(deps, 'de', suppressedId))?.source.suppressed === true ? true : undefined), 5000, 'the suppression to reach the index');
// A direct read, but match searches with suppressed:false: a refresh between the create and the
// suppression can have left the unsuppressed version searchable until the next one.
await refreshEveryCopy(deps, 'de');

t.test('an unchanged copy of name and address finds the listing first, scored at least 0.8', async (t) => {
  const res = await match({ name: `${name} GmbH`, address: home.address, zip: home.zip, place: home.place });
  t.equal(res.statusCode, 200);
  const { candidates } = res.json() as { candidates: MatchCandidateResult[] };
  t.equal(candidates[0]!.id, listingId);
  t.ok(candidates[0]!.score >= 0.8, `score ${candidates[0]!.score}`);
  t.match(candidates[0], { name: `${name} GmbH`, address: home.address, zip: home.zip, place: home.place, signals: { name: 1, phone: null, website: null, distance_km: null } });
  t.notOk('distance_km' in candidates[0]!, 'no distance without coordinates in the request');
});

t.test('a copy with a typo, "Str.", a national phone and no legal form still finds the listing', async (t) => {
  const typo = `${surname.slice(0, 5)}${surname[6]}${surname[5]}${surname.slice(7)}`;
  const candidates = await candidatesFor({ name: `Bäckerei ${typo}`, address: 'Hauptstr. 12a', phone: `0${nationalNumber}`, website: `${surname.toLowerCase()}.example` });
  t.equal(candidates[0]!.id, listingId);
  t.ok(candidates[0]!.score >= 0.8, `score ${candidates[0]!.score}`);
  t.equal(candidates[0]!.signals.phone, true);
  t.equal(candidates[0]!.signals.website, true);
  t.equal(candidates[0]!.signals.address, 1);
});

t.test('coordinates tell the listing from its branch 2 km away', async (t) => {
  const candidates = await candidatesFor({ name: `${name} GmbH`, latitude: 52.5205, longitude: 13.4052 });
  t.equal(candidates[0]!.id, listingId);
  t.ok(candidates[0]!.distance_km! < 0.1, `${candidates[0]!.distance_km} km`);
  const branch = candidates.find((c) => c.id === branchId);
  t.ok(branch === undefined || branch.score < 0.8, `branch scored ${branch?.score}`);
});

t.test('look-alikes of the listing never score 0.8 for it', async (t) => {
  const below = (candidates: MatchCandidateResult[], id: string) => {
    const found = candidates.find((c) => c.id === id);
    return found === undefined || found.score < 0.8;
  };
  const neighbour = await candidatesFor({ name: 'Bäckerei Gschinnwallner', address: 'Hauptstraße 14', zip: home.zip, place: home.place, latitude: 52.5201, longitude: 13.4051 });
  t.ok(below(neighbour, listingId), 'another bakery in the same street');
  const elsewhere = await candidatesFor({ name: `${name} GmbH`, address: 'Lindenweg 3', zip: '80331', place: 'München', latitude: 48.137, longitude: 11.575 });
  t.ok(below(elsewhere, listingId) && below(elsewhere, branchId), 'the same name in another city');
});

t.test('a phone alone with the name finds the listing', async (t) => {
  const candidates = await candidatesFor({ name, phone });
  t.equal(candidates[0]!.id, listingId);
  t.ok(candidates[0]!.score >= 0.8);
});

t.test('candidates: at most five, best first, none below 0.3, two decimals', async (t) => {
  const candidates = await candidatesFor({ name: 'Bäckerei', ...home });
  t.ok(candidates.length <= 5);
  for (const [i, c] of candidates.entries()) {
    t.ok(c.score >= 0.3 && c.score <= 1, `score ${c.score}`);
    t.equal(Math.round(c.score * 100) / 100, c.score);
    if (i > 0) t.ok(candidates[i - 1]!.score >= c.score, 'descending');
  }
});

t.test('a suppressed listing is never a candidate, even for its exact copy', async (t) => {
  const candidates = await candidatesFor({ name: suppressedName, address: 'Hauptstraße 14', zip: home.zip, place: home.place, latitude: home.latitude, longitude: home.longitude });
  t.notOk(candidates.some((c) => c.id === suppressedId));
});

t.test('a deleted listing is never a candidate', async (t) => {
  const id = await create({ name: `Metzgerei ${surname}`, ...home, phones: [] });
  await eventually(async () => ((await candidatesFor({ name: `Metzgerei ${surname}`, ...home }))[0]?.id === id ? true : undefined), 5000, 'the new listing to be matchable');
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}`, headers: owner.auth })).statusCode, 204);
  await eventually(async () => ((await candidatesFor({ name: `Metzgerei ${surname}`, ...home })).some((c) => c.id === id) ? undefined : true), 5000, 'the deleted listing to leave the candidates');
  t.pass('gone');
});

t.test('validation: name and at least one of address, zip + place, phone, coordinates', async (t) => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ name }, /at least one of address, zip \+ place, phone, or latitude \+ longitude/],
    [{ address: home.address }, /name/],
    [{ name, zip: home.zip }, /at least one of/],
    [{ name, latitude: 52.5 }, /latitude, longitude: give both or neither/],
    [{ name, phone: 'keine Nummer' }, /phone: must be E.164 or a national number of DE/],
    [{ name, latitude: 91, longitude: 13 }, /latitude/],
    [{ name, address: home.address, colour: 'blue' }, /colour/],
  ];
  for (const [body, detail] of cases) {
    const res = await match(body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
    const error = res.json() as { type: string; details: string[] };
    t.equal(error.type, 'validation');
    t.ok(
      error.details.some((d) => detail.test(d)),
      `${JSON.stringify(body)} → ${JSON.stringify(error.details)}`,
    );
  }
});

t.test('any partner may match; a request without a key is 401', async (t) => {
  t.equal((await match({ name, phone }, owner.auth)).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/de/listings/match', payload: { name, phone } })).statusCode, 401);
});
