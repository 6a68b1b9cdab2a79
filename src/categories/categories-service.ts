// The categories a partner may give a listing: the country's taxonomy, searched in its index, and
// the categories one listing carries (read from PostgreSQL with the listing).
import type { ListingsService } from '../listings/listings-service.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import type { CategoriesPage } from '../schemas/search.js';
import { searchCategories } from './categories-index.js';

export function createCategoriesService({ opensearch, names, listings }: { opensearch: OpenSearchClient; names: IndexNames; listings: Pick<ListingsService, 'get'> }) {
  return {
    /** The country's categories, all or those whose name matches (`*` wildcards). */
    search: (country: string, name?: string): Promise<CategoriesPage> => searchCategories(opensearch, names, country, name),

    async ofListing(country: string, listingId: number): Promise<CategoriesPage> {
      const { categories } = await listings.get(country, listingId);
      return { numFound: categories.length, categories };
    },
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;
