// The page a search answers with, and its JSON: the listings travel as JSON text (json-text.ts),
// so the route sends the page without parsing or serialising them again (routes/search.ts).
import type { ListingSearchResponse } from '../schemas/search.js';
import type { JsonText } from './json-text.js';

/** A page of the search response with its one kind of listing, each as JSON text. */
export type SearchPage<T extends ListingSearchResponse['listings'][number]> = Omit<ListingSearchResponse, 'listings'> & { listings: JsonText<T>[] };

/**
 * A page: `next` while more results remain (left out of the JSON when undefined). Written out
 * rather than spread: building a page by spreads cost more than the rest of the page.
 */
export function searchPage<T extends ListingSearchResponse['listings'][number]>(numFound: number, listings: JsonText<T>[], next: string | undefined): SearchPage<T> {
  return { numFound, numReturned: listings.length, listings, next };
}

/**
 * The page as JSON.stringify would write it with parsed listings: its members in their own order
 * (`next`, when there is one, last), the listings' texts spliced in as they are.
 */
export function searchPageJson(page: SearchPage<ListingSearchResponse['listings'][number]>): string {
  let json = '';
  for (const key in page) {
    const value = page[key as keyof typeof page];
    if (value === undefined) continue;
    json += `${json ? ',' : '{'}"${key}":${key === 'listings' ? `[${(value as string[]).join(',')}]` : JSON.stringify(value)}`;
  }
  return json ? `${json}}` : '{}';
}
