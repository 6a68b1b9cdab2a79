// The match model's pure parts: string similarity, the normal forms it compares, the signals and
// the score's promises (docs/contract.md §17), the request rules and the candidate query.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { AppError } from '../../src/platform/errors.js';
import { haversineKm } from '../../src/match/geo-distance.js';
import { MATCH_DEFAULTS } from '../../src/match/match-defaults.js';
import { addressForm, expandStreet, nameTokens, normalisePhone, streetKey, streetSpellings, websiteHost } from '../../src/match/match-normalise.js';
import { parseMatchRequest } from '../../src/match/match-params.js';
import { buildMatchQuery } from '../../src/match/match-query.js';
import { contributions, matchScore, piecewise } from '../../src/match/match-score.js';
import { candidateOf, rankCandidates } from '../../src/match/match-service.js';
import { matchSignals, nameSimilarity, type MatchCandidate } from '../../src/match/match-signals.js';
import { editDistance, editSimilarity, tokenSetSimilarity } from '../../src/match/string-similarity.js';
import type { MatchRequest } from '../../src/schemas/match.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/queries/${name}.json`, import.meta.url), 'utf8'));

t.test('edit distance counts replaced, added, dropped and swapped letters once each', async (t) => {
  t.equal(editDistance('huber', 'huber'), 0);
  t.equal(editDistance('huber', 'hubre'), 1, 'a swap of neighbours is one edit');
  t.equal(editDistance('huber', 'hube'), 1);
  t.equal(editDistance('huber', 'hhuber'), 1);
  t.equal(editDistance('müller', 'muller'), 1, 'compares code points');
  t.equal(editSimilarity('wurnholzer', 'wurnhlozer'), 0.9);
  t.equal(editSimilarity('', ''), 1);
  t.equal(editSimilarity('abc', ''), 0);
});

t.test('token-set similarity ignores word order and penalises words only one side has', async (t) => {
  t.equal(tokenSetSimilarity(['backerei', 'huber'], ['huber', 'backerei']), 1);
  t.equal(tokenSetSimilarity(['backerei', 'huber'], ['huber'], { minPair: 0.7 }), 2 / 3);
  t.equal(tokenSetSimilarity(['huber'], ['hofer'], { minPair: 0.7 }), 0, 'pairs below minPair count nothing');
  t.equal(tokenSetSimilarity([], []), 1);
  t.equal(tokenSetSimilarity(['huber'], []), 0);
});

t.test('names compare without case, umlaut spelling, punctuation, legal forms and connectors', async (t) => {
  t.same(nameTokens('Müller GmbH & Co. KG'), ['muller']);
  t.same(nameTokens('GmbH & Co. KG'), ['gmbh', 'co', 'kg'], 'a name of legal-form words alone keeps them');
  t.equal(nameSimilarity('Müller GmbH & Co. KG', 'MUELLER'), 1);
  t.equal(nameSimilarity('Schmidt und Söhne', 'Schmidt & Soehne'), 1);
  t.equal(nameSimilarity('Auto-Service Huber', 'Autoservice Huber'), 1, 'a compound written apart or together');
  t.ok(nameSimilarity('Bäckerei Wurnholzer', 'Bäckerei Wurnhlozer') >= 0.9, 'one typo keeps the name close');
  t.ok(nameSimilarity('Bäckerei Müller', 'Bäckerei Schmidt') <= 0.5, 'another surname is another business');
  t.equal(nameSimilarity('Filiale 12', 'Filiale 21'), 0.5, 'digits must agree exactly');
});

t.test('streets compare with "Str." written out, folded, without spaces and hyphens', async (t) => {
  t.equal(expandStreet('Hauptstr.'), 'hauptstrasse');
  t.equal(expandStreet('Berliner Str. '), 'berliner strasse');
  t.equal(expandStreet('Strandweg'), 'strandweg', 'a street that starts with "Str" stays');
  t.equal(streetKey('Berliner Str.'), streetKey('Berliner Straße'));
  t.equal(streetKey('Goethe-Str'), streetKey('Goethestraße'));
  t.equal(streetKey('Hauptstrasse'), streetKey('HAUPTSTRASSE'));
  t.same(addressForm('Hauptstr. 12 a'), { street: 'hauptstrasse', number: '12a' });
  t.same(addressForm('Hauptstraße 12a'), addressForm('Hauptstr. 12 a'));
  t.same(streetSpellings('Hauptstraße').sort(), ['hauptstr', 'hauptstr.', 'hauptstrasse']);
});

t.test("phones are read as E.164, national numbers in the country's numbering plan", async (t) => {
  t.equal(normalisePhone('030 12345678', 'de'), '+493012345678');
  t.equal(normalisePhone('(030) 123 456 78', 'de'), '+493012345678');
  t.equal(normalisePhone('+49 30 12345678', 'de'), '+493012345678');
  t.equal(normalisePhone('+493012345678', 'de'), '+493012345678');
  t.equal(normalisePhone('01 234 56 78', 'at'), '+4312345678');
  t.equal(normalisePhone('keine Nummer', 'de'), null);
});

t.test('websites compare by host, without scheme, "www." and path', async (t) => {
  t.equal(websiteHost('https://www.Example.com/about?x=1'), 'example.com');
  t.equal(websiteHost('example.com/kontakt'), 'example.com');
  t.equal(websiteHost('http://shop.example.com'), 'shop.example.com');
  t.equal(websiteHost('http://'), null);
});

t.test('haversine distance', async (t) => {
  const berlinMunich = haversineKm(52.52, 13.405, 48.137, 11.575);
  t.ok(berlinMunich > 500 && berlinMunich < 508, `${berlinMunich} km`);
  t.equal(haversineKm(52.52, 13.405, 52.52, 13.405), 0);
});

const listing: MatchCandidate = {
  id: '1042',
  name: 'Bäckerei Wurnholzer GmbH',
  address: 'Hauptstraße 12',
  zip: '10115',
  place: 'Berlin',
  latitude: 52.52,
  longitude: 13.405,
  phones: ['+493012345678'],
  websites: ['https://www.wurnholzer.de/'],
};
const probe = (request: MatchRequest) => parseMatchRequest(request, 'de').probe;
const scoreOf = (request: MatchRequest, candidate = listing) => matchScore(matchSignals(probe(request), candidate, 'de'));

t.test("an unchanged copy of a listing's name and address scores at least 0.8", async (t) => {
  t.ok(scoreOf({ name: listing.name, address: listing.address, zip: listing.zip, place: listing.place }) >= 0.8);
  t.ok(scoreOf({ name: listing.name, address: listing.address }) >= 0.8, 'address without zip and place');
});

t.test('perturbed copies of the listing still score at least 0.8', async (t) => {
  t.ok(scoreOf({ name: 'Bäckerei Wurnhlozer', address: 'Hauptstr. 12', phone: '030 12345678' }) >= 0.8, 'typo, Str., national phone');
  t.ok(scoreOf({ name: 'Bäckerei Wurnholzer', address: 'Hauptstr. 12', latitude: 52.5213, longitude: 13.405 }) >= 0.8, 'legal form dropped, moved 145 m');
  t.ok(scoreOf({ name: listing.name, phone: '+493012345678' }) >= 0.8, 'name and phone');
});

t.test('another business or another branch scores below 0.8', async (t) => {
  t.ok(scoreOf({ name: listing.name, address: 'Lindenweg 3', zip: '80331', place: 'München' }) < 0.8, 'same name in another city');
  t.ok(scoreOf({ name: 'Bäckerei Gschinnwallner', address: 'Hauptstraße 14', zip: '10115', place: 'Berlin', latitude: 52.5202, longitude: 13.405 }) < 0.8, 'same street, another business');
  t.ok(scoreOf({ name: 'Bäckerei Gschinnwallner', address: 'Hauptstraße 12', zip: '10115', place: 'Berlin', latitude: 52.52, longitude: 13.405 }) < 0.8, 'same building, another business');
  t.ok(scoreOf({ name: listing.name, latitude: 52.538, longitude: 13.405 }) < 0.8, 'same name 2 km away');
  t.ok(scoreOf({ name: 'Café Sonne', phone: '+493012345678' }) < 0.8, 'the same phone under another name');
});

t.test('a strong name with nothing else judged stays below 0.8', async (t) => {
  const nameOnly = { name: 1, address: null, addressCoverage: 0, phone: null, website: null, distance_km: null };
  t.ok(matchScore(nameOnly) < 0.8);
  t.ok(scoreOf({ name: listing.name, zip: '10115', place: 'Berlin' }) < 0.8, 'name with zip and place alone');
});

t.test('signals the request cannot judge are null and count for nothing', async (t) => {
  const signals = matchSignals(probe({ name: listing.name, zip: '10115', place: 'Berlin' }), listing, 'de');
  t.equal(signals.phone, null);
  t.equal(signals.website, null);
  t.equal(signals.distance_km, null);
  const c = contributions(signals);
  t.equal(c.phone, 0);
  t.equal(c.website, 0);
  t.equal(c.distance, 0);
  const unlisted = matchSignals(probe({ name: listing.name, phone: '+493099999999', website: 'wurnholzer.de' }), { ...listing, phones: [], websites: [] }, 'de');
  t.equal(unlisted.phone, null, 'a listing without phones cannot disagree');
  t.equal(unlisted.website, null);
  t.equal(unlisted.address, null);
});

t.test('phone, website and distance signals', async (t) => {
  const s = matchSignals(probe({ name: listing.name, phone: '030 12345678', website: 'http://wurnholzer.de', latitude: 52.52, longitude: 13.4065 }), listing, 'de');
  t.equal(s.phone, true);
  t.equal(s.website, true);
  t.ok(s.distance_km! > 0.09 && s.distance_km! < 0.11, `${s.distance_km} km`);
  const other = matchSignals(probe({ name: listing.name, phone: '+4989123456', website: 'example.org' }), listing, 'de');
  t.equal(other.phone, false);
  t.equal(other.website, false);
});

t.test('the distance curve rewards the same door and penalises a branch farther away', async (t) => {
  const curve = MATCH_DEFAULTS.model.distance;
  t.equal(piecewise(curve, 0.1), piecewise(curve, 0));
  t.ok(piecewise(curve, 2) < 0);
  t.equal(piecewise(curve, 1000), curve[curve.length - 1]![1]);
});

t.test('candidates: at most five, best first, two decimals, none below 0.3', async (t) => {
  const candidates: MatchCandidate[] = [
    listing,
    ...Array.from({ length: 6 }, (_, i) => ({ ...listing, id: String(2000 + i), address: `Hauptstraße ${20 + i}` })),
    { ...listing, id: '3000', name: 'Friseur Kalchbichler', address: 'Lindenweg 3', zip: '80331', place: 'München', latitude: 48.1, longitude: 11.5 },
  ];
  const ranked = rankCandidates(probe({ name: listing.name, address: listing.address, zip: listing.zip, place: listing.place }), candidates, 'de');
  t.equal(ranked.length, 5);
  t.equal(ranked[0]!.id, '1042');
  t.ok(
    ranked.every((c, i) => i === 0 || ranked[i - 1]!.score >= c.score),
    'descending',
  );
  t.ok(ranked.every((c) => c.score >= 0.3 && c.score <= 1 && Math.round(c.score * 100) === c.score * 100));
  t.notOk(
    ranked.some((c) => c.id === '3000'),
    'an unrelated listing is no candidate',
  );
  t.same(Object.keys(ranked[0]!.signals).sort(), ['address', 'distance_km', 'name', 'phone', 'website']);
});

t.test("a hit's stored listing becomes a candidate: its phones, and of its links the websites only", async (t) => {
  const candidate = candidateOf({
    lid: 1042,
    listing: {
      name: 'Café Sonne',
      address: 'Am Markt 1',
      zip: '50667',
      place: 'Köln',
      latitude: null,
      longitude: null,
      phones: [{ number: '+492211234567' }],
      links: [
        { type: 'facebook', url: 'https://facebook.com/sonne' },
        { type: 'website', url: 'https://cafe-sonne.example' },
      ],
    },
  });
  t.same(candidate, {
    id: '1042',
    name: 'Café Sonne',
    address: 'Am Markt 1',
    zip: '50667',
    place: 'Köln',
    latitude: null,
    longitude: null,
    phones: ['+492211234567'],
    websites: ['https://cafe-sonne.example'],
  });
  t.same(candidateOf({ lid: 7, listing: { name: 'X', address: '', zip: '', place: '', latitude: 1, longitude: 2 } }).phones, [], 'a listing without phones or links');
});

t.test('a request needs a name and one of address, zip + place, phone, or coordinates', async (t) => {
  const failure = (request: MatchRequest) => {
    try {
      parseMatchRequest(request, 'de');
    } catch (error) {
      return error instanceof AppError && error.type === 'validation' ? error.details : ['not a validation error'];
    }
    return [];
  };
  t.match(failure({ name: 'Bäckerei Huber' }), [/at least one of address, zip \+ place, phone, or latitude \+ longitude/]);
  t.match(failure({ name: 'Bäckerei Huber', zip: '10115' }), [/at least one of/], 'a post code alone locates nothing');
  t.same(failure({ name: 'Bäckerei Huber', address: 'Hauptstraße 1', zip: '10115' }), [], 'but may come with an address');
  t.match(failure({ name: 'Bäckerei Huber', latitude: 52.5 }), [/latitude, longitude: give both or neither/, /at least one of/]);
  t.match(failure({ name: 'Bäckerei Huber', phone: 'keine' }), [/phone: must be E.164 or a national number of DE/, /at least one of/]);
  t.match(failure({ name: '&', address: 'Hauptstraße 1' }), [/name: must contain a letter or digit/]);
  t.same(failure({ name: 'Bäckerei Huber', address: 'Hauptstraße 1' }), []);
  t.same(failure({ name: 'Bäckerei Huber', zip: '10115', place: 'Berlin' }), []);
  t.same(failure({ name: 'Bäckerei Huber', phone: '030 1234567' }), []);
  t.same(failure({ name: 'Bäckerei Huber', latitude: 52.5, longitude: 13.4 }), []);
});

t.test('the candidate search: whole bodies against golden fixtures', async (t) => {
  const { search } = parseMatchRequest({ name: 'Bäckerei Müller GmbH', address: 'Hauptstr. 12', zip: '50667', place: 'Köln', phone: '0221 1234567', latitude: 50.94, longitude: 6.96 }, 'de');
  t.same(buildMatchQuery(search), fixture('match-all-fields'));
  t.same(buildMatchQuery(parseMatchRequest({ name: 'GmbH & Co. KG', phone: '+4930123456' }, 'de').search), fixture('match-phone-only'));
});
