// Loads the shipped taxonomy file into PostgreSQL, one localised name per enabled country.
import type { Db } from '../db/client.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexLayout, IndexNames } from '../opensearch/index-definitions.js';
import { analyzeCategories, upsertCategories } from './categories-dal.js';
import { rebuildCategoriesIndex } from './categories-index.js';
import { DEFAULT_TAXONOMY_FILE, readTaxonomy, type TaxonomyFile } from './taxonomy-file.js';

/** Rows of the taxonomy for the given countries; a country without a language falls back to English. */
export function taxonomyRows(file: TaxonomyFile, countries: readonly string[]) {
  return countries.flatMap((country) => {
    const language = file.languages[country] ?? 'en';
    return file.categories.map((c) => ({ country, id: c.id, name: c.names[language] ?? c.names.en ?? c.id }));
  });
}

/** Loads the taxonomy into PostgreSQL (the source of truth, for validation) and the categories index. */
export async function importCategories(
  deps: { db: Db; opensearch: OpenSearchClient; names: IndexNames; layout: IndexLayout },
  countries: readonly string[],
  path: URL | string = DEFAULT_TAXONOMY_FILE,
): Promise<number> {
  const { db } = deps;
  const file = readTaxonomy(path);
  const rows = taxonomyRows(file, countries);
  for (let i = 0; i < rows.length; i += 1000) {
    await upsertCategories(db, rows.slice(i, i + 1000));
  }
  await analyzeCategories(db);
  await rebuildCategoriesIndex(deps.opensearch, deps.names, deps.layout, rows);
  return rows.length;
}
