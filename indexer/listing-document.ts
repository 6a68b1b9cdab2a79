// Builds the OpenSearch document of a listing: pure, so that the whole document is tested against
// a fixture. Searchable fields are folded here with the same `fold` the queries use.
import { toListing, type Listing, type PublicUrls } from '../src/listings/listing-view.js';
import type { ListingForIndex } from '../src/listings/listing-records.js';
import { splitAddress } from '../src/listings/split-address.js';
import type { SolrResultView } from '../src/schemas/search.js';
import { compoundSuffixes, joinedPairs } from '../src/search/compounds.js';
import { edgeForms } from '../src/search/edge-forms.js';
import { fold } from '../src/search/fold.js';
import { openHoursFields } from '../src/search/open-hours.js';
import { documentTypoBudget, indexedForms } from '../src/search/typo-variants.js';
import { joinedCompounds, nameKey, searchWords, wordSpellings, writtenWords } from '../src/search/words.js';
import { analystFields } from './analyst-fields.js';

// Its format's version, DOCUMENT_FORMAT, lives with the index definitions (src/opensearch).

export interface ListingDocumentInput {
  listing: Listing;
  partnerName: string;
  suppressed: boolean;
  boost: number;
  version: number;
  updatedAt: Date;
  /** Of the listing's `website` reviews only (src/listings/listing-records.ts). */
  rating?: { mean: number; count: number } | undefined;
  /** What only the analyst fields need (analyst-fields.ts). */
  createdAt: Date;
  claimantName: string | null;
  hasOffer: boolean;
}

export type ListingDocument = ReturnType<typeof buildListingDocument>;

export function documentId(country: string, listingId: number | string): string {
  return `${country}:${listingId}`;
}

/**
 * The words of the name, the categories and keywords (`tags`) and the place, with their typo
 * forms (src/search/typo-variants.ts): what the Solr-mode query looks up. One budget bounds the
 * forms of a document; the name takes from it first, then the place, then the tags (fifty
 * keywords could otherwise crowd out the place).
 */
export function searchableWords(listing: Pick<Listing, 'name' | 'categories' | 'keywords' | 'place'>) {
  const spellings = (text: string) => writtenWords(text).flatMap(wordSpellings);
  const budget = documentTypoBudget();
  const name = indexedForms([...spellings(listing.name), ...joinedCompounds(listing.name)], { budget });
  const place = indexedForms(spellings(listing.place), { budget });
  const tags = indexedForms([...listing.categories.map((c) => c.name), ...listing.keywords].flatMap(spellings), { twoEdits: false, budget });
  return {
    name_key: nameKey(listing.name),
    // A keyword, not a number: a term look-up on candidates is cheaper than a point query.
    name_word_count: String(searchWords(listing.name).length),
    name_words: name.words,
    name_del1: name.del1,
    name_del2: name.del2,
    tags_words: tags.words,
    tags_del1: tags.del1,
    place_words: place.words,
    place_del1: place.del1,
    place_del2: place.del2,
    // Compound words and type-ahead (docs/search.md "Compound words", "Type-ahead"): the endings
    // of name words, adjacent name words joined, and the beginnings of name words.
    name_suffixes: compoundSuffixes(name.words),
    name_joined: joinedPairs(writtenWords(listing.name)),
    name_prefixes: edgeForms(name.words),
  };
}

export function buildListingDocument(input: ListingDocumentInput) {
  const { listing } = input;
  const { street, number } = splitAddress(listing.address);
  const categoryNames = listing.categories.map((c) => c.name);
  const loc = listing.latitude === null || listing.longitude === null ? null : `${listing.latitude},${listing.longitude}`;
  const rating = input.rating ? Math.round(input.rating.mean * 10) / 10 : null;
  const id = documentId(listing.country_code, listing.id);
  const { contact: _contact, ...shown } = listing; // filtered search shows the Listing without contact
  return {
    id,
    lid: Number(listing.id),
    cc: listing.country_code,
    name: listing.name,
    categories: categoryNames,
    category_ids: listing.categories.map((c) => c.id),
    keywords: listing.keywords,
    place: listing.place,
    phones: listing.phones.map((p) => p.number),
    loc,
    partner: input.partnerName,
    rating,
    review_count: input.rating?.count ?? 0,
    boost: input.boost,
    active: listing.active,
    suppressed: input.suppressed,
    version: input.version,
    updated_at: input.updatedAt.toISOString(),
    ...analystFields(listing, {
      createdAt: input.createdAt,
      creatorName: input.partnerName,
      claimantName: input.claimantName,
      hasOffer: input.hasOffer,
      suppressed: input.suppressed,
    }),
    listing: shown,
    // What only the query builders read (src/search/internal-fields.ts): folded text, typo forms,
    // opening-hours ranges and the result views, kept apart from the fields analysts read.
    internal: {
      name_fold: fold(listing.name),
      ...searchableWords(listing),
      categories_fold: categoryNames.map(fold),
      keywords_fold: listing.keywords.map(fold),
      street_fold: fold(street),
      house_number_fold: fold(number),
      zip_fold: fold(listing.zip),
      place_fold: fold(listing.place),
      ...openHoursFields(listing),
      // The filtered search's result as JSON text, a stored field: the API splices it into its
      // answer unparsed, and OpenSearch reads it without filtering _source (docs/search.md "Reading
      // the hits"). Stored, not doc values: a listing's text may pass doc values' 32 766 bytes.
      listing_text: JSON.stringify(shown),
      // The Solr-mode result, but for what the query adds (_dist_, _distboost_, score), as JSON in
      // doc values: a search reads it for its 50 hits without loading and filtering their _source,
      // which cost OpenSearch several times the search itself (docs/search.md).
      result_view: JSON.stringify({
        id,
        lid: Number(listing.id),
        cc: listing.country_code,
        name: listing.name,
        street: listing.address,
        zip: listing.zip,
        place: listing.place,
        partner: input.partnerName,
        ...(loc ? { loc } : {}),
        ...(rating !== null ? { rating } : {}),
        categories: categoryNames,
        boost: input.boost,
        _version_: input.version,
      } satisfies SolrResultView),
    },
  };
}

/** The document of a stored listing, as the indexer and the reindex both build it. */
export function listingDocumentOf(record: ListingForIndex, urls: PublicUrls) {
  const { row } = record;
  return buildListingDocument({
    listing: toListing(record, urls),
    partnerName: record.creatorName,
    suppressed: row.suppressed,
    boost: row.boost,
    version: row.version,
    updatedAt: row.updatedAt,
    rating: record.rating,
    createdAt: row.createdAt,
    claimantName: record.claimantName,
    hasOffer: record.hasOffer,
  });
}
