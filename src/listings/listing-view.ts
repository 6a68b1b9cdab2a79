// Turns a stored listing into the Listing of the public API (docs/listings-api.md "Listing").
import type { Image, Listing } from '../schemas/listing.js';
import { mediaFileName, mediaUrl } from '../media/media-store.js';
import type { ListingForView, StoredHours, StoredImage } from './listing-records.js';
import type { ListingContent, SubObjects } from './listing-writes-dal.js';
import { DAYS } from './hours.js';
import { defaultTimeZone } from '../platform/config.js';

export type { Image, Listing };

export function listingUrl(webBaseUrl: string, country: string, id: number | string): string {
  return `${webBaseUrl.replace(/\/$/, '')}/${country}/${id}`;
}

export interface PublicUrls {
  web: string;
  media: string;
}

export function toImage(image: StoredImage, mediaBaseUrl: string): Image {
  return {
    id: String(image.id),
    type: image.type,
    url: mediaUrl(mediaBaseUrl, mediaFileName(image.key, image.ext)),
    base64: null,
    caption: image.caption,
  };
}

/** Every day of the week, those without hours as []. */
const hoursView = (hours: StoredHours): Listing['hours'] => Object.fromEntries(DAYS.map((d) => [d, hours[d] ?? []]));

/** A stored zone, or the country's default for a listing that names none. */
const timeZoneView = (timeZone: string | null, country: string) => timeZone ?? defaultTimeZone(country);

/** The Listing; `withImages: false` for the create response, which has no images (docs/listings-api.md). */
export function toListing(record: ListingForView, urls: PublicUrls, { withImages = true } = {}): Listing {
  const { row } = record;
  return {
    id: String(row.id),
    name: row.name,
    address: row.address,
    zip: row.zip,
    place: row.place,
    country_code: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    keywords: row.keywords,
    description: row.description,
    emails: record.emails.map((e) => ({ id: String(e.id), address: e.address })),
    phones: record.phones.map((p) => ({ id: String(p.id), type: p.type, number: p.number })),
    url: listingUrl(urls.web, row.country, row.id),
    hours: hoursView(row.hours),
    special_hours: row.specialHours,
    temporarily_closed: row.temporarilyClosed ?? null,
    time_zone: timeZoneView(row.timeZone, row.country),
    ...(withImages ? { images: record.images.map((image) => toImage(image, urls.media)) } : {}),
    links: record.links.map((l) => ({ id: String(l.id), type: l.type, url: l.url })),
    categories: record.categories,
    active: row.active,
    contact: row.contact ?? null,
    claimed: row.claimedBy !== null,
    suppressed: row.suppressed,
    version: row.version,
  };
}

/** An item of a list as a write would store it: one sent without an id has none yet. */
type Unsaved<T extends { id: string }> = Omit<T, 'id'> & { id?: string | undefined };

/**
 * The fields a content write (PUT, PATCH, restore) sets, as GET would show them once stored: what
 * a write is compared with to find what it changes (listing-diff.ts). Items sent without an id
 * have none yet, and categories are known by id only (their names come from the taxonomy).
 */
export interface ContentView
  extends Pick<
    Listing,
    'name' | 'address' | 'zip' | 'place' | 'latitude' | 'longitude' | 'keywords' | 'description' | 'hours' | 'special_hours' | 'temporarily_closed' | 'time_zone' | 'active' | 'contact'
  > {
  emails: Unsaved<Listing['emails'][number]>[];
  phones: Unsaved<Listing['phones'][number]>[];
  links: Unsaved<Listing['links'][number]>[];
  categories: { id: string }[];
}

const idOf = (id: number | undefined) => (id === undefined ? {} : { id: String(id) });

export function toContentView(content: ListingContent, subs: SubObjects, country: string): ContentView {
  return {
    name: content.name,
    address: content.address,
    zip: content.zip,
    place: content.place,
    latitude: content.latitude,
    longitude: content.longitude,
    keywords: content.keywords,
    description: content.description,
    emails: subs.emails.map((e) => ({ ...idOf(e.id), address: e.address })),
    phones: subs.phones.map((p) => ({ ...idOf(p.id), type: p.type, number: p.number })),
    hours: hoursView(content.hours),
    special_hours: content.specialHours,
    temporarily_closed: content.temporarilyClosed,
    time_zone: timeZoneView(content.timeZone, country),
    links: subs.links.map((l) => ({ ...idOf(l.id), type: l.type, url: l.url })),
    categories: subs.categoryIds.map((id) => ({ id })),
    active: content.active,
    contact: content.contact,
  };
}

type Preview<T extends { id: string }> = Omit<T, 'id'> & { id: string | null };

/**
 * A listing as a dry run answers it (docs/contract.md §20): as the write would store it, but for
 * the ids only the real write would assign, which are null: a new listing's (its url and version 0
 * with it) and those of sub-objects it would add.
 */
export interface ListingPreview extends Omit<Listing, 'id' | 'url' | 'emails' | 'phones' | 'links'> {
  id: string | null;
  url: string | null;
  emails: Preview<Listing['emails'][number]>[];
  phones: Preview<Listing['phones'][number]>[];
  links: Preview<Listing['links'][number]>[];
}

/** `written` as a dry run of a write over `stored` answers it; without `stored`, of a create. */
export function toPreview(written: Listing, stored?: Listing): ListingPreview {
  const known = (items: readonly { id: string }[] | undefined) => new Set(items?.map((item) => item.id));
  const keep = <T extends { id: string }>(items: readonly T[], ids: ReadonlySet<string>) => items.map((item) => ({ ...item, id: ids.has(item.id) ? item.id : null }));
  return {
    ...written,
    ...(stored ? {} : { id: null, url: null, version: 0 }),
    emails: keep(written.emails, known(stored?.emails)),
    phones: keep(written.phones, known(stored?.phones)),
    links: keep(written.links, known(stored?.links)),
  };
}
