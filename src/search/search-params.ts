// Decides which search a GET /:country/listings request asks for and checks the rules of
// docs/contract.md §5 that span parameters; every failed check is reported.
import { validationError } from '../platform/errors.js';
import { existingIdOrUndefined } from '../http/ids.js';
import { isCalendarDate } from '../listings/special-hours.js';
import { ID_PATTERN } from '../schemas/common.js';
import { E164_PATTERN } from '../schemas/listing.js';
import type { ListingSearchQuery } from '../schemas/search.js';
import { solrArea, type SolrArea } from './area-params.js';
import { SEARCH_DEFAULTS } from './query/defaults.js';
import { parseMatchValue, type MatchValue } from './query/wildcard.js';
import { searchWords } from './words.js';

interface Page {
  limit: number;
  offset: number;
  /** The `next` of a previous answer, checked against the query by the search service (cursor.ts). */
  cursor?: string;
  /** Only listings open at this instant (open_now, open_at; docs/contract.md §18). */
  openAt?: Date;
  /** What a cursor remembers of it: `now` (its instant moves with every page) or the instant asked. */
  openKey?: string;
}

export type ListingSearch =
  | ({ kind: 'ids'; ids: number[] } & Page)
  | ({ kind: 'phone'; phone: string } & Page)
  | ({ kind: 'address'; street: MatchValue; place: MatchValue; postCode: MatchValue; number?: MatchValue } & Page)
  | ({ kind: 'solr'; what?: string; where?: string; category?: string; centre?: { lat: number; lon: number } } & SolrArea & Page);

const FILTER_FAMILIES = { ids: ['ids'], phone: ['phone'], address: ['street', 'place', 'postCode', 'number'] } as const;
/** What a Solr-mode search may be for, one at least; `radius` and `sort` only shape it. */
const SOLR_PARAMS = ['what', 'where', 'category', 'lat', 'lon', 'bbox'] as const;
const SOLR_ONLY_PARAMS = [...SOLR_PARAMS, 'radius', 'sort'] as const;
const LISTING_ID = new RegExp(ID_PATTERN);
const E164 = new RegExp(E164_PATTERN);
/** An ISO 8601 date and time with seconds optional, fractions allowed, and an offset required. */
const INSTANT_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DAY_MS = 86_400_000;

/**
 * The instant of a value INSTANT_WITH_OFFSET accepts, or undefined for an impossible one. Date reads
 * ECMAScript's date-time format, which this is once upper-cased and with a colon in the offset (a
 * fraction of luxon's cost, which showed in an open_at search's CPU profile). Date rolls an
 * impossible day over into the next month (30 February), so the calendar date is checked on its own.
 */
function instantWithOffset(value: string): Date | undefined {
  const iso = value.toUpperCase().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) || !isCalendarDate(iso.slice(0, 10)) ? undefined : instant;
}

/** The instant open_now or open_at asks about, or undefined without either; failed checks go to `errors`. */
function openInstant(query: ListingSearchQuery, now: Date, errors: string[]): Date | undefined {
  if (query.open_now !== undefined && query.open_at !== undefined) {
    errors.push('open_now, open_at: give one or neither');
    return undefined;
  }
  // open_now=false asks for nothing: every listing, open or not.
  if (query.open_now) return now;
  if (query.open_at === undefined) return undefined;
  // A "+" of the offset sent unencoded arrives as a space (as in phone).
  const value = query.open_at.replace(/ (\d{2}:?\d{2})$/, '+$1');
  const instant = INSTANT_WITH_OFFSET.test(value) ? instantWithOffset(value) : undefined;
  if (!instant) {
    errors.push('open_at: must be an ISO 8601 date and time with an offset, e.g. 2026-12-24T18:30:00+01:00');
    return undefined;
  }
  if (Math.abs(instant.getTime() - now.getTime()) > SEARCH_DEFAULTS.openAtWindowDays * DAY_MS) {
    errors.push(`open_at: must be within ${SEARCH_DEFAULTS.openAtWindowDays} days of now`);
    return undefined;
  }
  return instant;
}

/** `now` is when open_now asks, and what open_at's window is measured from. */
export function parseListingSearch(query: ListingSearchQuery, now: Date = new Date()): ListingSearch {
  const errors: string[] = [];
  const openAt = openInstant(query, now, errors);
  const page = {
    limit: query.limit ?? SEARCH_DEFAULTS.limit,
    offset: query.offset ?? 0,
    ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    ...(openAt ? { openAt, openKey: query.open_now ? 'now' : openAt.toISOString() } : {}),
  };
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
    if (!SOLR_PARAMS.some(given)) errors.push('solr: give at least one of what, where, category, lat and lon, or bbox');
    const area = solrArea(query, errors);
    if (errors.length) throw validationError(errors);
    return {
      kind: 'solr',
      ...page,
      ...area,
      ...(query.what ? { what: query.what } : {}),
      ...(query.where ? { where: query.where } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(given('lat') ? { centre: { lat: query.lat!, lon: query.lon! } } : {}),
    };
  }

  for (const name of SOLR_ONLY_PARAMS) if (given(name)) errors.push(`${name}: only with solr=true`);
  const families = (Object.keys(FILTER_FAMILIES) as (keyof typeof FILTER_FAMILIES)[]).filter((family) => FILTER_FAMILIES[family].some(given));
  if (families.length !== 1) {
    errors.push(families.length === 0 ? 'query: give one filter: ids, phone, or street + place + postCode' : `query: filters ${families.join(' and ')} cannot be combined`);
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
    if (!E164.test(phone)) errors.push('phone: must be E.164, e.g. %2B493012345678');
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
