// The labelled set of the match benchmark (bench/match.ts): match requests made from listings that
// exist, perturbed as partners send them (typos, "Str." ↔ "Straße", a national phone, missing fields, moved
// coordinates, a legal form dropped or added), each labelled with the listing meant; and requests
// for businesses that do not exist but resemble one that does (another business of the same
// category in the same street, the same name in another city, a branch 2 km away), labelled with
// none. Pure and deterministic: the same sample and seed give the same requests.
import type { MatchRequest } from '../src/schemas/match.js';
import { applyEdit, random, type EditKind } from './relevance-queries.js';

export interface SampleListing {
  id: number;
  name: string;
  address: string;
  zip: string;
  place: string;
  lat: number | null;
  lon: number | null;
  phone: string | null;
  categoryId: string;
  categoryName: string;
}

export const MATCH_CLASSES = ['copy', 'perturbed', 'same street, other business', 'same name, other city', 'branch 2 km away'] as const;
export type MatchClass = (typeof MATCH_CLASSES)[number];

export interface LabelledMatch {
  class: MatchClass;
  request: MatchRequest;
  /** The listing meant; null when the request describes a business that is not listed. */
  expected: number | null;
  /** What was done to the listing, for reading failures. */
  note: string;
}

type Random = ReturnType<typeof random>;

/** A point `km` from (lat, lon) in a random direction. */
export function moved(lat: number, lon: number, km: number, rng: Random) {
  const angle = rng.next() * 2 * Math.PI;
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    latitude: round(lat + (km / 111.2) * Math.cos(angle)),
    longitude: round(lon + (km / (111.2 * Math.cos((lat * Math.PI) / 180))) * Math.sin(angle)),
  };
}

/**
 * The other usual spelling of a street: "Heinrichstr. 5" ↔ "Heinrichstraße 5", "Morsbroicher Str. 3" ↔
 * "Morsbroicher Straße 3" (the seed writes "Str.", partners write either); other streets unchanged.
 */
export function respellStreet(address: string): string {
  if (/str\./i.test(address)) return address.replace(/str\./gi, (m) => (m[0] === 'S' ? 'Straße' : 'straße'));
  return address.replace(/stra(ß|ss)e\b/gi, (m) => (m[0] === 'S' ? 'Str.' : 'str.'));
}

const LEGAL_FORM = /\s+(GmbH & Co\. KG|GmbH|e\.K\.|AG)$/;

/** The name with its legal form dropped, or " GmbH" added when it has none. */
export const toggleLegalForm = (name: string) => (LEGAL_FORM.test(name) ? name.replace(LEGAL_FORM, '') : `${name} GmbH`);

/** One edit in one word of 5+ letters (the name unchanged when it has none). */
function typo(name: string, rng: Random): string {
  const words = name
    .split(' ')
    .map((word, i) => ({ word, i }))
    .filter(({ word }) => /^\p{L}{5,}$/u.test(word));
  if (!words.length) return name;
  const { word, i } = rng.pick(words);
  const kind = rng.pick<EditKind>(['replace', 'drop', 'add', 'swap']);
  const parts = name.split(' ');
  parts[i] = applyEdit(word, kind, rng.int(1, word.length - 1), rng);
  return parts.join(' ');
}

/** "+49301234567" as dialled at home: "030 1234567" (the area code is a guess; the digits are what count). */
export const nationalFormat = (e164: string) => `0${e164.slice(3, 5)} ${e164.slice(5)}`;

/** A perturbed copy of `l`: each field changed, dropped or kept at random; one way to find it always remains. */
function perturbed(l: SampleListing, rng: Random): { request: MatchRequest; note: string } {
  const notes: string[] = [];
  const pick = <T>(label: string, options: [string, T][]) => {
    const [what, value] = rng.pick(options);
    if (what) notes.push(`${label}: ${what}`);
    return value;
  };
  const name = pick('name', [
    ['', l.name],
    ['typo', typo(l.name, rng)],
    ['legal form toggled', toggleLegalForm(l.name)],
    ['capitals', l.name.toUpperCase()],
  ]);
  const address = pick<string | undefined>('address', [
    ['', l.address],
    ['Str. ↔ Straße', respellStreet(l.address)],
    ['missing', undefined],
  ]);
  const locality = pick<boolean>('zip+place', [
    ['', true],
    ['missing', false],
  ]);
  const phone = l.phone
    ? pick<string | undefined>('phone', [
        ['', l.phone],
        ['national', nationalFormat(l.phone)],
        ['missing', undefined],
      ])
    : undefined;
  const located = l.lat !== null && l.lon !== null;
  const at = located
    ? pick<{ latitude: number; longitude: number } | undefined>('coordinates', [
        ['moved ≤ 150 m', moved(l.lat!, l.lon!, rng.next() * 0.15, rng)],
        ['missing', undefined],
      ])
    : undefined;
  const request: MatchRequest = {
    name,
    ...(address ? { address } : {}),
    ...(locality ? { zip: l.zip, place: l.place } : {}),
    ...(phone ? { phone } : {}),
    ...(at ?? {}),
  };
  if (!address && !locality && !phone && !at) {
    request.address = l.address;
    notes.push('address kept (nothing else left)');
  }
  return { request, note: notes.join(', ') || 'unchanged' };
}

const streetOf = (address: string) => address.replace(/\s+\d+\s*[a-z]?$/i, '');

export interface DecoyPlan {
  /** The listing the decoys resemble. */
  of: number;
  kind: 'same street, other business' | 'same name, other city' | 'branch 2 km away';
  listing: { name: string; address: string; zip: string; place: string; latitude?: number; longitude?: number; categoryId: string };
}

/**
 * Listings to create beside the sampled ones: for each listing of `decoyed`, another business of
 * its category in its street, its name in another city, and its branch 2 km away. The true-match
 * requests for those listings then have look-alikes to be told from.
 */
export function planDecoys(decoyed: readonly SampleListing[], others: readonly SampleListing[], opts: { seed: number; businessName: (trade: string, categoryId: string) => string }): DecoyPlan[] {
  const rng = random(opts.seed + 101);
  const plans: DecoyPlan[] = [];
  for (const l of decoyed) {
    const near = l.lat !== null && l.lon !== null ? moved(l.lat, l.lon, 0.04 + rng.next() * 0.08, rng) : {};
    plans.push({
      of: l.id,
      kind: 'same street, other business',
      listing: { name: opts.businessName(l.categoryName, l.categoryId), address: `${streetOf(l.address)} ${rng.int(1, 180)}`, zip: l.zip, place: l.place, ...near, categoryId: l.categoryId },
    });
    const elsewhere = rng.pick(others.filter((o) => o.place !== l.place));
    plans.push({
      of: l.id,
      kind: 'same name, other city',
      listing: {
        name: l.name,
        address: elsewhere.address,
        zip: elsewhere.zip,
        place: elsewhere.place,
        ...(elsewhere.lat !== null ? { latitude: elsewhere.lat, longitude: elsewhere.lon! } : {}),
        categoryId: l.categoryId,
      },
    });
    const branch = l.lat !== null && l.lon !== null ? moved(l.lat, l.lon, 2, rng) : {};
    plans.push({ of: l.id, kind: 'branch 2 km away', listing: { name: l.name, address: `Filialweg ${rng.int(1, 99)}`, zip: l.zip, place: l.place, ...branch, categoryId: l.categoryId } });
  }
  return plans;
}

/**
 * The labelled requests: per sampled listing an unchanged copy (name, address, zip, place) and a
 * perturbed copy; per listing of `lookalikes`, a request for each kind of business that resembles
 * it but is not listed (and must match nothing at 0.8 or above).
 */
export function buildMatchSet(
  sample: readonly SampleListing[],
  lookalikes: readonly SampleListing[],
  opts: { seed: number; businessName: (trade: string, categoryId: string) => string },
): LabelledMatch[] {
  const rng = random(opts.seed);
  const set: LabelledMatch[] = [];
  for (const l of sample) {
    set.push({ class: 'copy', request: { name: l.name, address: l.address, zip: l.zip, place: l.place }, expected: l.id, note: 'unchanged' });
    const { request, note } = perturbed(l, rng);
    set.push({ class: 'perturbed', request, expected: l.id, note });
  }
  for (const l of lookalikes) {
    const located = l.lat !== null && l.lon !== null;
    const neighbour = located ? moved(l.lat!, l.lon!, 0.03 + rng.next() * 0.1, rng) : {};
    set.push({
      class: 'same street, other business',
      expected: null,
      note: `beside ${l.name}`,
      request: { name: opts.businessName(l.categoryName, l.categoryId), address: `${streetOf(l.address)} ${rng.int(1, 180)}`, zip: l.zip, place: l.place, ...neighbour },
    });
    const elsewhere = rng.pick(sample.filter((o) => o.place !== l.place));
    set.push({
      class: 'same name, other city',
      expected: null,
      note: `${l.name} in ${elsewhere.place}`,
      request: { name: l.name, address: elsewhere.address, zip: elsewhere.zip, place: elsewhere.place, ...(elsewhere.lat !== null ? { latitude: elsewhere.lat, longitude: elsewhere.lon! } : {}) },
    });
    if (located) {
      set.push({
        class: 'branch 2 km away',
        expected: null,
        note: `${l.name} 2 km on`,
        request: { name: l.name, address: `Filialweg ${rng.int(1, 99)}`, zip: l.zip, place: l.place, ...moved(l.lat!, l.lon!, 2, rng) },
      });
    }
  }
  return set;
}

/** Score buckets of the reliability table: [0.3, 0.4) … [0.9, 1.0]. */
export const BUCKETS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;
export const bucketOf = (score: number): number => [...BUCKETS].reverse().find((b) => score >= b - 1e-9) ?? BUCKETS[0];
