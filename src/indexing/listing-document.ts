// Builds the OpenSearch document of a listing: pure, so that the whole document is tested against
// a fixture. Searchable fields are folded here with the same `fold` the queries use.
import { fold } from '../search/fold.js';
import { toListing, type Listing, type PublicUrls } from '../listings/listing-view.js';
import type { ListingRecord } from '../listings/listings-repository.js';
import { splitAddress } from './split-address.js';

export interface ListingDocumentInput {
  listing: Listing;
  partnerName: string;
  suppressed: boolean;
  boost: number;
  version: number;
  updatedAt: Date;
  rating?: { mean: number; count: number } | undefined;
}

export type ListingDocument = ReturnType<typeof buildListingDocument>;

export function documentId(country: string, listingId: number | string): string {
  return `${country}:${listingId}`;
}

export function buildListingDocument(input: ListingDocumentInput) {
  const { listing } = input;
  const { street, number } = splitAddress(listing.address);
  const categoryNames = listing.categories.map((c) => c.name);
  const { contact: _contact, ...shown } = listing; // filtered search shows the Listing without contact
  return {
    id: documentId(listing.country_code, listing.id),
    lid: Number(listing.id),
    cc: listing.country_code,
    name: listing.name,
    name_fold: fold(listing.name),
    categories: categoryNames,
    categories_fold: categoryNames.map(fold),
    category_ids: listing.categories.map((c) => c.id),
    keywords: listing.keywords,
    keywords_fold: listing.keywords.map(fold),
    street_fold: fold(street),
    house_number_fold: fold(number),
    zip_fold: fold(listing.zip),
    place: listing.place,
    place_fold: fold(listing.place),
    phones: listing.phones.map((p) => p.number),
    loc: listing.latitude === null || listing.longitude === null ? null : `${listing.latitude},${listing.longitude}`,
    partner: input.partnerName,
    rating: input.rating ? Math.round(input.rating.mean * 10) / 10 : null,
    review_count: input.rating?.count ?? 0,
    boost: input.boost,
    active: listing.active,
    suppressed: input.suppressed,
    version: input.version,
    updated_at: input.updatedAt.toISOString(),
    listing: shown,
  };
}

/** The document of a stored listing, as the indexer and the reindex both build it. */
export function listingDocumentOf(record: ListingRecord, urls: PublicUrls) {
  const { row } = record;
  return buildListingDocument({
    listing: toListing(record, urls),
    partnerName: record.creatorName,
    suppressed: row.suppressed,
    boost: row.boost,
    version: row.version,
    updatedAt: row.updatedAt,
    rating: record.rating,
  });
}
