// What every ops command shares: the configuration, connections opened for one command and closed
// after it, the country argument, and the reindex with a progress bar (reindex, seed, setup).
import { Presets, SingleBar } from 'cli-progress';
import { createListingSync } from '../../indexer/listing-sync.js';
import { reindexCountry } from '../../indexer/reindex.js';
import { indexLayout, loadConfig, publicUrls } from '../platform/config.js';
import { createDatabase } from '../db/client.js';
import { createLogger } from '../platform/logger.js';
import { createOpenSearchClient } from '../opensearch/client.js';
import { indexNames } from '../opensearch/index-definitions.js';

export const config = loadConfig();

type Database = ReturnType<typeof createDatabase>;
type OpenSearchClient = ReturnType<typeof createOpenSearchClient>;

/** Runs `work` with a database connection and closes it afterwards. */
export async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  // Four: a reindex keeps three pages in flight beside the query that pages through the ids.
  const database = createDatabase(config.DATABASE_URL, 4);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Runs `work` with an OpenSearch client and closes it afterwards. */
export async function withOpenSearch<T>(work: (opensearch: OpenSearchClient) => Promise<T>): Promise<T> {
  const opensearch = createOpenSearchClient(config.OPENSEARCH_URL);
  try {
    return await work(opensearch);
  } finally {
    await opensearch.close();
  }
}

/** Runs `work` with the clients a reindex or reconcile needs, and closes them afterwards. */
export const withSearchStack = <T>(work: (stack: { db: Database['db']; opensearch: OpenSearchClient }) => Promise<T>): Promise<T> =>
  withOpenSearch((opensearch) => withDatabase(({ db }) => work({ db, opensearch })));

/** A country argument: lower-cased, and one of COUNTRIES. */
export function country(value: string): string {
  const cc = value.toLowerCase();
  if (!config.countries.includes(cc)) throw new Error(`country "${value}" is not enabled (COUNTRIES=${config.COUNTRIES})`);
  return cc;
}

/** Reindexes a country with a progress bar on stderr. */
export async function reindexWithProgress(db: Database['db'], opensearch: OpenSearchClient, cc: string) {
  const logger = createLogger('warn', 'cli');
  const names = indexNames(config.INDEX_PREFIX);
  const sync = createListingSync({ db, opensearch, names, urls: publicUrls(config), logger });
  const bar = new SingleBar({ format: 'index   {bar} {value}/{total} listings {percentage}% | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic);
  let started = false;
  const result = await reindexCountry({ db, opensearch, names, layout: indexLayout(config), urls: publicUrls(config), sync, logger }, cc, {
    onProgress: (done, total) => {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
  });
  bar.stop();
  return result;
}
