// The category taxonomy as the service ships it (data/categories.json, made by
// scripts/generate-taxonomy.ts): stable ids, each with its name in every language the taxonomy has.
import { readFileSync } from 'node:fs';
import { projectPath } from '../platform/project-paths.js';

export interface TaxonomyFile {
  /** The language of each country's names; a country not listed uses English. */
  languages: Record<string, string>;
  categories: { id: string; names: Record<string, string> }[];
}

export const DEFAULT_TAXONOMY_FILE = projectPath('data', 'categories.json');

export const readTaxonomy = (path: URL | string = DEFAULT_TAXONOMY_FILE): TaxonomyFile => JSON.parse(readFileSync(path, 'utf8')) as TaxonomyFile;
