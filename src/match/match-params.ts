// Checks the rules of a match request that span fields (docs/contract.md §17), every failed check
// reported, and turns the request into what the candidate search and the model compare.
import { validationError } from '../platform/errors.js';
import { splitAddress } from '../listings/split-address.js';
import type { MatchRequest } from '../schemas/match.js';
import { searchWords } from '../search/words.js';
import type { MatchSearch } from './match-query.js';
import type { MatchProbe } from './match-signals.js';
import { addressForm, normalisePhone, streetSpellings, websiteHost } from './match-normalise.js';

export interface ParsedMatch {
  search: MatchSearch;
  probe: MatchProbe;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

export function parseMatchRequest(body: MatchRequest, country: string): ParsedMatch {
  const errors: string[] = [];
  if (!searchWords(body.name).length) errors.push('name: must contain a letter or digit');
  if ((body.latitude === undefined) !== (body.longitude === undefined)) errors.push('latitude, longitude: give both or neither');
  const phone = present(body.phone) ? normalisePhone(body.phone, country) : undefined;
  if (phone === null) errors.push(`phone: must be E.164 or a national number of ${country.toUpperCase()}`);
  const host = present(body.website) ? websiteHost(body.website) : undefined;
  if (host === null) errors.push('website: must be a URL or a host name');
  const located = body.latitude !== undefined && body.longitude !== undefined;
  const hasAddress = present(body.address);
  // A post code or a place alone helps the score, but only the pair (or another field) locates a business.
  const hasLocality = present(body.zip) && present(body.place);
  if (!hasAddress && !hasLocality && !phone && !located) {
    errors.push('body: give at least one of address, zip + place, phone, or latitude + longitude');
  }
  if (errors.length) throw validationError(errors);

  const centre = located ? { lat: body.latitude!, lon: body.longitude! } : undefined;
  const street = hasAddress ? splitAddress(body.address!).street : '';
  return {
    search: {
      name: body.name,
      streets: street ? streetSpellings(street) : [],
      ...(present(body.zip) ? { zip: body.zip.trim() } : {}),
      ...(present(body.place) ? { place: body.place } : {}),
      ...(phone ? { phone } : {}),
      ...(centre ? { centre } : {}),
    },
    probe: {
      name: body.name,
      ...(hasAddress ? { address: addressForm(body.address!) } : {}),
      ...(present(body.zip) ? { zip: body.zip } : {}),
      ...(present(body.place) ? { place: body.place } : {}),
      ...(phone ? { phone } : {}),
      ...(host ? { websiteHost: host } : {}),
      ...(centre ? { centre } : {}),
    },
  };
}
