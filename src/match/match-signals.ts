// The signals of one candidate against one match request: how alike the names and addresses are,
// whether phone and website agree, how far apart they are. A signal either side cannot judge is
// null (docs/contract.md §17): the model then takes it as no evidence either way.
import { fold } from '../search/fold.js';
import { haversineKm } from './geo-distance.js';
import { MATCH_DEFAULTS } from './match-defaults.js';
import { addressForm, nameTokens, normalisePhone, websiteHost, type AddressForm } from './match-normalise.js';
import { editSimilarity, tokenSetSimilarity } from './string-similarity.js';

/** A match request in compared form (match-params.ts builds it). */
export interface MatchProbe {
  name: string;
  address?: AddressForm;
  zip?: string;
  place?: string;
  /** E.164. */
  phone?: string;
  websiteHost?: string;
  centre?: { lat: number; lon: number };
}

/** What the model needs of a listing (read from the index hit). */
export interface MatchCandidate {
  id: string;
  name: string;
  address: string;
  zip: string;
  place: string;
  latitude: number | null;
  longitude: number | null;
  /** E.164, as listings store them. */
  phones: string[];
  websites: string[];
}

export interface MatchSignals {
  /** Name similarity 0–1. */
  name: number;
  /** Address similarity 0–1 over the parts both sides have (street, number, zip, place); null when none. */
  address: number | null;
  /** Share of the address parts' weights that `address` judged (0 when null): how much it says. */
  addressCoverage: number;
  phone: boolean | null;
  website: boolean | null;
  distance_km: number | null;
}

const containsDigit = (word: string) => /\d/.test(word);

/** Two name words: digits must agree exactly ("Filiale 12" is not "Filiale 21"), letters by edit similarity. */
const wordSimilarity = (a: string, b: string) => (containsDigit(a) || containsDigit(b) ? (a === b ? 1 : 0) : editSimilarity(a, b));

const digitsOf = (words: readonly string[]) => words.join('').replace(/\D/g, '');

/**
 * Name similarity: the words after folding, legal forms and connectors dropped, paired whatever
 * their order. When the two split into different numbers of words ("Auto-Service Huber" and
 * "Autoservice Huber"), the whole names as one string too, whichever is higher; never across
 * different digits, which name different businesses ("Filiale 12", "Filiale 21").
 */
export function nameSimilarity(a: string, b: string): number {
  const left = nameTokens(a);
  const right = nameTokens(b);
  const words = tokenSetSimilarity(left, right, { minPair: MATCH_DEFAULTS.tokenMinSimilarity, pair: wordSimilarity });
  const compounds = left.length !== right.length && digitsOf(left) === digitsOf(right);
  return compounds ? Math.max(words, editSimilarity(left.join(''), right.join(''))) : words;
}

const placeKey = (place: string) => fold(place).replace(/[^\p{L}\p{N}]+/gu, '');
const zipKey = (zip: string) => fold(zip).replace(/\s+/g, '');

/** Address similarity over the parts both sides have, weighted by `addressParts`, and the share of weight judged. */
export function addressSimilarity(probe: Pick<MatchProbe, 'address' | 'zip' | 'place'>, candidate: Pick<MatchCandidate, 'address' | 'zip' | 'place'>) {
  const weights = MATCH_DEFAULTS.addressParts;
  const parts: [number, number][] = [];
  const theirs = addressForm(candidate.address);
  if (probe.address?.street && theirs.street) {
    parts.push([weights.street, editSimilarity(probe.address.street, theirs.street)]);
    if (probe.address.number && theirs.number) parts.push([weights.number, probe.address.number === theirs.number ? 1 : 0]);
  }
  if (probe.zip && candidate.zip.trim()) parts.push([weights.zip, zipKey(probe.zip) === zipKey(candidate.zip) ? 1 : 0]);
  if (probe.place && candidate.place.trim()) parts.push([weights.place, editSimilarity(placeKey(probe.place), placeKey(candidate.place))]);
  if (!parts.length) return { similarity: null, coverage: 0 };
  const judged = parts.reduce((sum, [w]) => sum + w, 0);
  const total = Object.values(weights).reduce((sum, w) => sum + w, 0);
  return { similarity: parts.reduce((sum, [w, s]) => sum + w * s, 0) / judged, coverage: judged / total };
}

export function matchSignals(probe: MatchProbe, candidate: MatchCandidate, country: string): MatchSignals {
  const address = addressSimilarity(probe, candidate);
  const phones = candidate.phones.map((p) => normalisePhone(p, country)).filter((p): p is string => p !== null);
  const hosts = candidate.websites.map(websiteHost).filter((h): h is string => h !== null);
  const located = probe.centre && candidate.latitude !== null && candidate.longitude !== null;
  return {
    name: nameSimilarity(probe.name, candidate.name),
    address: address.similarity,
    addressCoverage: address.coverage,
    phone: probe.phone && phones.length ? phones.includes(probe.phone) : null,
    website: probe.websiteHost && hosts.length ? hosts.includes(probe.websiteHost) : null,
    distance_km: located ? haversineKm(probe.centre!.lat, probe.centre!.lon, candidate.latitude!, candidate.longitude!) : null,
  };
}
