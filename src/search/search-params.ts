// Decides which search a GET /:country/listings request asks for and checks the rules of
// docs/contract.md §5 that span parameters; every failed check is reported.
import { validationError } from '../errors.js';
import { existingIdOrUndefined } from '../ids.js';
import { ID_PATTERN } from '../schemas/common.js';
import { E164_PATTERN } from '../schemas/listing.js';
import type { ListingSearchQuery } from '../schemas/search.js';
import { SEARCH_DEFAULTS } from './query/defaults.js';
import { parseMatchValue, type MatchValue } from './query/wildcard.js';
import { searchWords } from './words.js';

interface Page {
  limit: number;
  offset: number;
  /** The `next` of a previous answer, checked against the query by the search service (cursor.ts). */
  cursor?: string;
}

export type ListingSearch =
  | ({ kind: 'ids'; ids: number[] } & Page)
  | ({ kind: 'phone'; phone: string } & Page)
  | ({ kind: 'address'; street: MatchValue; place: MatchValue; postCode: MatchValue; number?: MatchValue } & Page)
  | ({ kind: 'solr'; what?: string; where?: string; category?: string; centre?: { lat: number; lon: number } } & Page);

const FILTER_FAMILIES = { ids: ['ids'], phone: ['phone'], address: ['street', 'place', 'postCode', 'number'] } as const;
const SOLR_PARAMS = ['what', 'where', 'category', 'lat', 'lon'] as const;
const LISTING_ID = new RegExp(ID_PATTERN);

export function parseListingSearch(query: ListingSearchQuery): ListingSearch {
  const errors: string[] = [];
  const page = { limit: query.limit ?? SEARCH_DEFAULTS.limit, offset: query.offset ?? 0, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) };
  const given = (name: keyof ListingSearchQuery) => query[name] !== undefined;
  // A cursor already says where its page starts (docs/contract.md §16).
  if (given('cursor') && given('offset')) errors.push('cursor: cannot be combined with offset');

  if (query.solr) {
    for (const family of Object.values(FILTER_FAMILIES)) {
      for (const name of family) if (given(name)) errors.push(`${name}: not a parameter of the Solr mode`);
    }
    if (given('lat') !== given('lon')) errors.push('lat, lon: give both or neither');
    const blank = (name: 'what' | 'where' | 'category') => given(name) && !query[name]!.trim();
    for (const name of ['what', 'where', 'category'] as const) if (blank(name)) errors.push(`${name}: must not be empty`);
    // Punctuation alone ("&", "-") is no word a listing could match.
    for (const name of ['what', 'where'] as const) {
      if (given(name) && !blank(name) && searchWords(query[name]!).length === 0) errors.push(`${name}: must contain a letter or digit`);
    }
    if (!SOLR_PARAMS.some(given)) errors.push('solr: give at least one of what, where, category, or lat and lon');
    if (errors.length) throw validationError(errors);
    return {
      kind: 'solr', ...page,
      ...(query.what ? { what: query.what } : {}),
      ...(query.where ? { where: query.where } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(given('lat') ? { centre: { lat: query.lat!, lon: query.lon! } } : {}),
    };
  }

  for (const name of SOLR_PARAMS) if (given(name)) errors.push(`${name}: only with solr=true`);
  const families = (Object.keys(FILTER_FAMILIES) as (keyof typeof FILTER_FAMILIES)[])
    .filter((family) => FILTER_FAMILIES[family].some(given));
  if (families.length !== 1) {
    errors.push(families.length === 0
      ? 'query: give one filter: ids, phone, or street + place + postCode'
      : `query: filters ${families.join(' and ')} cannot be combined`);
    throw validationError(errors);
  }

  const family = families[0]!;
  if (family === 'ids') {
    const parts = query.ids!.split(',').map((s) => s.trim());
    if (parts.length > SEARCH_DEFAULTS.maxIds) errors.push(`ids: at most ${SEARCH_DEFAULTS.maxIds} ids`);
    if (parts.some((p) => !LISTING_ID.test(p))) errors.push('ids: must be comma-separated listing ids');
    if (errors.length) throw validationError(errors);
    // An id too large to exist is skipped, like any other id that names nothing.
    const ids = parts.map(existingIdOrUndefined).filter((id): id is number => id !== undefined);
    return { kind: 'ids', ids: [...new Set(ids)], ...page };
  }
  if (family === 'phone') {
    // A "+" sent unencoded arrives as a space.
    const phone = query.phone!.replace(/^ /, '+').trim();
    if (!new RegExp(E164_PATTERN).test(phone)) errors.push('phone: must be E.164, e.g. %2B493012345678');
    if (errors.length) throw validationError(errors);
    return { kind: 'phone', phone, ...page };
  }
  const values: Partial<Record<'street' | 'place' | 'postCode' | 'number', MatchValue>> = {};
  for (const name of ['street', 'place', 'postCode', 'number'] as const) {
    const raw = query[name];
    if (raw === undefined) {
      if (name !== 'number') errors.push(`${name}: is required for an address search`);
      continue;
    }
    if (!raw.trim()) {
      errors.push(`${name}: must not be empty`);
      continue;
    }
    const parsed = parseMatchValue(raw);
    if ('error' in parsed) errors.push(`${name}: ${parsed.error}`);
    else values[name] = parsed;
  }
  if (errors.length) throw validationError(errors);
  return { kind: 'address', street: values.street!, place: values.place!, postCode: values.postCode!, ...(values.number ? { number: values.number } : {}), ...page };
}
