// The fields of the index document that are there for analysts (docs/contract.md §22,
// docs/analytics.md): who created and claims a listing, its state, what it has and how complete it
// is, its region and its map tiles. Pure: built from the listing and a few facts PostgreSQL adds.
import type { Listing } from '../src/listings/listing-view.js';
import { splitAddress } from '../src/listings/split-address.js';
import { tileKeys } from './map-tiles.js';
import { regionOf } from './regions.js';

/** What the analyst fields need beyond the Listing: read with it (src/listings/listing-records.ts). */
export interface AnalystFacts {
  createdAt: Date;
  /** The name of the partner that created the listing. */
  creatorName: string;
  /** The name of the partner that claims it; null when unclaimed. */
  claimantName: string | null;
  hasOffer: boolean;
  suppressed: boolean;
}

export type ListingStatus = 'active' | 'inactive' | 'suppressed' | 'temporarily_closed';

/**
 * One state per listing, the strongest first: suppressed (in no search at all), inactive (not in
 * Solr-mode search), temporarily closed (a closure is recorded; the document is not rewritten when
 * its last day passes), else active.
 */
export function listingStatus(listing: Pick<Listing, 'active' | 'temporarily_closed'>, suppressed: boolean): ListingStatus {
  if (suppressed) return 'suppressed';
  if (!listing.active) return 'inactive';
  if (listing.temporarily_closed) return 'temporarily_closed';
  return 'active';
}

const hasWebsite = (listing: Pick<Listing, 'links'>) => listing.links.some((link) => link.type === 'website');
/** Weekly hours, or a special day with hours of its own. */
const hasHours = (listing: Pick<Listing, 'hours' | 'special_hours'>) =>
  Object.values(listing.hours).some((intervals) => intervals.length > 0) || listing.special_hours.some((day) => day.intervals.length > 0);

/** The optional parts of a listing that completeness counts (docs/contract.md §22), each filled or not. */
export const COMPLETENESS_PARTS = {
  coordinates: (l: Listing) => l.latitude !== null && l.longitude !== null,
  phone: (l: Listing) => l.phones.length > 0,
  email: (l: Listing) => l.emails.length > 0,
  website: hasWebsite,
  hours: hasHours,
  description: (l: Listing) => Boolean(l.description?.trim()),
  image: (l: Listing) => (l.images?.length ?? 0) > 0,
  keywords: (l: Listing) => l.keywords.length > 0,
} satisfies Record<string, (listing: Listing) => boolean>;

/** The share, 0 to 1, of the parts of COMPLETENESS_PARTS the listing fills: a multiple of 1/8, exact in a float. */
export function completeness(listing: Listing): number {
  const parts = Object.values(COMPLETENESS_PARTS);
  return parts.filter((filled) => filled(listing)).length / parts.length;
}

export function analystFields(listing: Listing, facts: AnalystFacts) {
  const located = listing.latitude !== null && listing.longitude !== null;
  return {
    created_at: facts.createdAt.toISOString(),
    status: listingStatus(listing, facts.suppressed),
    claimed: listing.claimed,
    claimed_by: facts.claimantName,
    created_by: facts.creatorName,
    zip: listing.zip,
    street: splitAddress(listing.address).street,
    region: regionOf(listing.country_code, listing),
    // The first segment of each category id: `shop/bakery` is in the group `shop`.
    category_groups: [...new Set(listing.categories.map((c) => c.id.split('/')[0]!))],
    image_count: listing.images?.length ?? 0,
    has_offer: facts.hasOffer,
    has_hours: hasHours(listing),
    has_website: hasWebsite(listing),
    has_phone: listing.phones.length > 0,
    has_email: listing.emails.length > 0,
    completeness: completeness(listing),
    tiles: located ? tileKeys(listing.latitude!, listing.longitude!) : [],
  };
}
