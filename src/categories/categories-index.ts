// The categories index: rebuilt whole on every import (a new index, then an atomic alias swap,
// so lookups never see a half-loaded taxonomy) and queried by GET /:country/categories.
import { validationError } from '../platform/errors.js';
import { swapAliases } from '../opensearch/aliases.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import { searchThroughPool } from '../opensearch/pool-request.js';
import { categoriesIndexBody, type IndexLayout, type IndexNames } from '../opensearch/index-definitions.js';
import type { CategoriesPage, Category } from '../schemas/search.js';
import { internalField } from '../search/internal-fields.js';
import { matchClause, parseMatchValue } from '../search/query/wildcard.js';
import { categoryInternalFields } from './category-document.js';

export interface CategoryRow {
  country: string;
  id: string;
  name: string;
}

export async function rebuildCategoriesIndex(client: OpenSearchClient, names: IndexNames, layout: IndexLayout, rows: CategoryRow[]): Promise<string> {
  const index = names.newCategoriesIndex();
  await client.indices.create({ index, body: categoriesIndexBody(layout) });
  for (let i = 0; i < rows.length; i += 2000) {
    const body = rows
      .slice(i, i + 2000)
      .flatMap((r) => [{ index: { _index: index, _id: `${r.country}:${r.id}` } }, { cc: r.country, id: r.id, name: r.name, internal: categoryInternalFields(r.name) }]);
    const res = await client.bulk({ body });
    if (res.body.errors) throw new Error(`categories bulk import failed: ${JSON.stringify(res.body.items.find((it) => Object.values(it)[0]?.error))}`);
  }
  await client.indices.refresh({ index });
  const old = await swapAliases(client, index, [names.categoriesAlias]);
  if (old.length) await client.indices.delete({ index: old });
  return index;
}

/** Categories of a country whose name matches (`*` wildcards; case- and accent-insensitive), sorted by name. */
export async function searchCategories(client: OpenSearchClient, names: IndexNames, country: string, name?: string): Promise<CategoriesPage> {
  const filter: Record<string, unknown>[] = [{ term: { cc: country } }];
  if (name !== undefined) {
    const match = parseMatchValue(name);
    if ('error' in match) throw validationError([`name: ${match.error}`]);
    filter.push(matchClause(internalField('name_fold'), match));
  }
  const { hits } = await searchThroughPool<{ hits: { total: { value: number }; hits: { _source: unknown }[] } }>(client, {
    index: names.categoriesAlias,
    body: JSON.stringify({ query: { bool: { filter } }, sort: [{ [internalField('name_fold')]: 'asc' }, { id: 'asc' }], size: 10_000, _source: ['id', 'name'], track_total_hits: true }),
  });
  return {
    numFound: hits.total.value,
    categories: hits.hits.map((h) => h._source as Category),
  };
}
