// Turns a stored listing into the Listing of the public API (docs/listings-api.md "Listing").
import type { Image, Listing } from '../schemas/listing.js';
import { mediaFileName, mediaUrl } from '../media/media-store.js';
import type { ListingForView, StoredImage } from './listing-records.js';
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
    hours: Object.fromEntries(DAYS.map((d) => [d, row.hours[d] ?? []])),
    special_hours: row.specialHours,
    temporarily_closed: row.temporarilyClosed ?? null,
    time_zone: row.timeZone ?? defaultTimeZone(row.country),
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
