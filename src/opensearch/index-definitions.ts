// Index definitions are data (mappings/*.json); this module loads them, names the indices, and
// holds the version of the listing documents they receive.
import { readFileSync } from 'node:fs';
import type { Client } from '@opensearch-project/opensearch';
import { projectPath } from '../platform/project-paths.js';

export type IndexDefinition = NonNullable<Parameters<Client['indices']['create']>[0]['body']>;

const load = (file: string): IndexDefinition => JSON.parse(readFileSync(projectPath('mappings', file), 'utf8')) as IndexDefinition;

export const listingsIndexDefinition = load('listings.json');

/**
 * The version of what indexer/listing-document.ts writes. Raise it when a field's content changes
 * (not only its mapping): `setup` then rebuilds every listings index from PostgreSQL (index-setup.ts).
 */
export const DOCUMENT_FORMAT = 11;
const categoriesIndexDefinition = load('categories.json');

/**
 * How an index is spread over the cluster (config.ts `indexLayout`): primary shards, and copies
 * of each shard on other nodes. Not in mappings/*.json, so one definition serves a single node
 * and a cluster.
 */
export interface IndexLayout {
  shards: number;
  replicas: number;
}

/**
 * The categories index: a few thousand small documents, so one shard whatever the layout says
 * (more would only add per-shard work to every lookup); as many copies as the listings have, so
 * that lookups keep answering when a node is lost.
 */
export const categoriesIndexBody = (layout: IndexLayout): IndexDefinition => ({
  ...categoriesIndexDefinition,
  settings: { ...categoriesIndexDefinition.settings, number_of_replicas: layout.replicas },
});

const timestamp = (now: Date) => now.toISOString().replace(/\D/g, '').slice(0, 17);

/**
 * Names of indices and aliases. Each country has versioned physical indices
 * (`listings-de-20261122073000`) behind the read alias `listings-de`; the alias `listings`
 * spans every country for analysts. `prefix` keeps test runs apart from development data.
 */
export function indexNames(prefix: string) {
  return {
    listingsAlias: (cc: string) => `${prefix}listings-${cc}`,
    listingsAllAlias: `${prefix}listings`,
    newListingsIndex: (cc: string, now = new Date()) => `${prefix}listings-${cc}-${timestamp(now)}`,
    /** One index for the categories of every country (small), behind this alias. */
    categoriesAlias: `${prefix}categories`,
    newCategoriesIndex: (now = new Date()) => `${prefix}categories-${timestamp(now)}`,
  };
}

export type IndexNames = ReturnType<typeof indexNames>;
