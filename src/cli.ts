// Ops CLI: `npm run cli -- <command>`. Output meant for scripts goes to stdout, the rest to stderr.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import { Command } from 'commander';
import { indexNames } from '../mappings/index.js';
import { importCategories } from './categories/categories-import.js';
import { loadConfig, publicUrls } from './config.js';
import { createDatabase, runMigrations } from './db/client.js';
import { dropListingsIndices, ensureListingsIndices, listingsIndicesToRebuild } from './indexing/index-setup.js';
import { createListingSync } from './indexing/listing-sync.js';
import { createPublisher } from './indexing/outbox.js';
import { pendingEventsSummary } from './indexing/outbox-dal.js';
import { createIndexQueue } from './indexing/queue.js';
import { reconcileCountry, repairJobs } from './indexing/reconcile.js';
import { reindexCountry } from './indexing/reindex.js';
import { countLiveListings } from './listings/listings-dal.js';
import { createListingWrites } from './listings/change-listing.js';
import { createListingsService } from './listings/listings-service.js';
import { createLogger } from './logger.js';
import { announceRevokedKeys, revocationChannel } from './partners/key-revocations.js';
import { createKeysService } from './partners/keys-service.js';
import { createPartnersService } from './partners/partners-service.js';
import { projectPath } from './project-paths.js';
import { SAMPLE_LISTINGS } from './sample/sample-data.js';
import { createOpenSearchClient } from './search/opensearch-client.js';

const config = loadConfig();
const program = new Command('cli').description('Operations of the listings directory');

/** Runs `work` with a database connection and closes it afterwards. */
async function withDatabase<T>(work: (db: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
  // Four: a reindex keeps three pages in flight beside the query that pages through the ids.
  const database = createDatabase(config.DATABASE_URL, 4);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

program.command('migrate').description('apply database migrations').action(() =>
  withDatabase(async ({ db }) => {
    await runMigrations(db);
    console.error('migrations applied');
  }));

program.command('indices').description('create missing indices and aliases')
  .option('--recreate', 'drop the listings indices of INDEX_PREFIX first (loses their documents; for tests)')
  .action(async (opts: { recreate?: boolean }) => {
  const client = createOpenSearchClient(config.OPENSEARCH_URL);
  if (opts.recreate) await dropListingsIndices(client, config.INDEX_PREFIX);
  const created = await ensureListingsIndices(client, config.INDEX_PREFIX, config.countries);
  console.error(created.length ? `created ${created.join(', ')}` : 'indices exist');
  await client.close();
});

program.command('setup').description('migrate, create missing indices, import categories, rebuild outdated or emptied indices (idempotent)')
  .action(() => withDatabase(async ({ db }) => {
    await runMigrations(db);
    const client = createOpenSearchClient(config.OPENSEARCH_URL);
    const created = await ensureListingsIndices(client, config.INDEX_PREFIX, config.countries);
    const count = await importCategories({ db, opensearch: client, names: indexNames(config.INDEX_PREFIX) }, config.countries);
    console.error(`migrated; ${created.length ? `created ${created.join(', ')}` : 'indices exist'}; ${count} categories imported`);
    for (const { country: cc, reason } of await listingsIndicesToRebuild(client, config.INDEX_PREFIX, config.countries, (c) => countLiveListings(db, c))) {
      console.error(`rebuilding the index of ${cc}: it ${reason}`);
      const result = await reindexWithProgress(db, client, cc);
      console.error(`rebuilt ${result.index} with ${result.documents} listings`);
    }
    await client.close();
  }));

const categories = program.command('categories').description('category taxonomy');
categories.command('import').description('load the shipped taxonomy').option('--file <path>', 'taxonomy JSON file')
  .action((opts: { file?: string }) => withDatabase(async ({ db }) => {
    const client = createOpenSearchClient(config.OPENSEARCH_URL);
    const count = await importCategories({ db, opensearch: client, names: indexNames(config.INDEX_PREFIX) }, config.countries, opts.file);
    await client.close();
    console.error(`imported ${count} categories for ${config.countries.join(', ')}`);
  }));

const partner = program.command('partner').description('partners and their API keys');
partner.command('create <name>').description('create a partner; prints its key on the last line')
  .option('--admin', 'admin role: may act on any listing and write website reviews')
  .action((name: string, opts: { admin?: boolean }) => withDatabase(async ({ db }) => {
    const created = await createPartnersService({ db }).create(name, opts.admin ? 'admin' : 'partner');
    console.log(`partner ${created.id} (${opts.admin ? 'admin' : 'partner'}) created; its key, shown once:`);
    console.log(created.key);
  }));
partner.command('list').description('list partners, each followed by its keys (indented)').action(() => withDatabase(async ({ db }) => {
  const keys = await createKeysService({ db }).list();
  for (const p of await createPartnersService({ db }).list()) {
    console.log([p.id, p.role, p.revokedAt ? 'revoked' : 'active', p.name].join('\t'));
    for (const k of keys.filter((key) => key.partnerId === p.id)) {
      console.log(['', 'key', k.id, k.revokedAt ? 'revoked' : 'active', `created ${k.createdAt.toISOString()}`].join('\t'));
    }
  }
}));
partner.command('revoke <id>').description('revoke a partner and all its keys').action((id: string) => withDatabase(async ({ db }) => {
  const revoked = await createPartnersService({ db }).revoke(Number(id));
  console.error(revoked ? `partner ${id} revoked` : `no active partner ${id}`);
  if (!revoked) process.exitCode = 1;
  else await announce(await createKeysService({ db }).hashesOf(Number(id)));
}));
partner.command('key-create <partnerId>').description('create another key for a partner (rotation); prints it on the last line')
  .action((partnerId: string) => withDatabase(async ({ db }) => {
    const created = await createKeysService({ db }).create(Number(partnerId));
    if (!created) {
      console.error(`no active partner ${partnerId}`);
      process.exitCode = 1;
      return;
    }
    console.log(`key ${created.id} of partner ${partnerId} created; shown once:`);
    console.log(created.key);
  }));
partner.command('key-revoke <keyId>').description('revoke one key; the partner, its other keys and its claims stay')
  .action((keyId: string) => withDatabase(async ({ db }) => {
    const keyHash = await createKeysService({ db }).revoke(Number(keyId));
    console.error(keyHash ? `key ${keyId} revoked` : `no active key ${keyId}`);
    if (!keyHash) process.exitCode = 1;
    else await announce([keyHash]);
  }));

/** Tells every API instance to forget revoked keys at once; without Redis they expire from its cache. */
async function announce(keyHashes: string[]): Promise<void> {
  try {
    await announceRevokedKeys(config.REDIS_URL, revocationChannel(config.QUEUE_PREFIX), keyHashes);
  } catch {
    console.error(`warning: Redis unreachable, the revocation was not announced; API instances accept the key for at most ${config.AUTH_CACHE_MS} ms more`);
  }
}

program.command('sample').description('create a demo partner and a few sample listings in "de" once')
  .action(() => withDatabase(async ({ db }) => {
    const keyFile = projectPath('.stack', 'demo-key');
    if (existsSync(keyFile)) {
      console.error(`sample data present; demo key: ${readFileSync(keyFile, 'utf8').trim()}`);
      return;
    }
    const demo = await createPartnersService({ db }).create('demo', 'partner');
    const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
    const writes = createListingWrites({ db, publish: createPublisher(queue, createLogger('warn', 'cli')) });
    const listings = createListingsService({ db, writes, urls: publicUrls(config) });
    const caller = { partnerId: demo.id, name: 'demo', role: 'partner' as const };
    for (const input of SAMPLE_LISTINGS) await listings.create(caller, 'de', input);
    await queue.close();
    mkdirSync(projectPath('.stack'), { recursive: true });
    writeFileSync(keyFile, `${demo.key}\n`);
    console.error(`created ${SAMPLE_LISTINGS.length} sample listings in "de"; demo key (also in .stack/demo-key): ${demo.key}`);
  }));

/** Runs `work` with the clients a reindex or reconcile needs, and closes them afterwards. */
async function withSearchStack<T>(work: (stack: { db: ReturnType<typeof createDatabase>['db']; opensearch: ReturnType<typeof createOpenSearchClient> }) => Promise<T>): Promise<T> {
  const opensearch = createOpenSearchClient(config.OPENSEARCH_URL);
  try {
    return await withDatabase(({ db }) => work({ db, opensearch }));
  } finally {
    await opensearch.close();
  }
}

const country = (value: string) => {
  const cc = value.toLowerCase();
  if (!config.countries.includes(cc)) throw new Error(`country "${value}" is not enabled (COUNTRIES=${config.COUNTRIES})`);
  return cc;
};

/** Reindexes a country with a progress bar on stderr; used by `reindex` and by `seed`. */
async function reindexWithProgress(db: ReturnType<typeof createDatabase>['db'], opensearch: ReturnType<typeof createOpenSearchClient>, cc: string) {
  const logger = createLogger('warn', 'cli');
  const names = indexNames(config.INDEX_PREFIX);
  const sync = createListingSync({ db, opensearch, names, urls: publicUrls(config), logger });
  const bar = new SingleBar({ format: 'index   {bar} {value}/{total} listings {percentage}% | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic);
  let started = false;
  const result = await reindexCountry({ db, opensearch, names, urls: publicUrls(config), sync, logger }, cc, {
    onProgress: (done, total) => {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
  });
  bar.stop();
  return result;
}

program.command('reindex <country>')
  .description('rebuild the country\'s index from PostgreSQL, swap the alias atomically, catch up, drop the old index')
  .action((cc: string) => withSearchStack(async ({ db, opensearch }) => {
    const begun = Date.now();
    const result = await reindexWithProgress(db, opensearch, country(cc));
    const seconds = (Date.now() - begun) / 1000;
    console.log(`reindexed ${result.documents} listings into ${result.index} in ${seconds.toFixed(1)} s `
      + `(${Math.round(result.documents / seconds)}/s); caught up ${result.caughtUp}; dropped ${result.droppedIndices.join(', ') || 'nothing'}`);
  }));

program.command('reconcile <country>')
  .description('compare PostgreSQL and OpenSearch (ids and versions); exit code 1 on differences')
  .option('--fix', 'enqueue the repairs (the indexer re-syncs each listing)')
  .action((cc: string, opts: { fix?: boolean }) => withSearchStack(async ({ db, opensearch }) => {
    const names = indexNames(config.INDEX_PREFIX);
    const { checked, differences } = await reconcileCountry({ db, opensearch, names }, country(cc));
    for (const d of differences.slice(0, 100)) console.log([d.kind, d.listingId, `postgres=${d.postgres ?? '-'}`, `opensearch=${d.opensearch ?? '-'}`].join('\t'));
    if (differences.length > 100) console.log(`... and ${differences.length - 100} more`);
    console.log(`${checked} listings checked, ${differences.length} differences`);
    if (opts.fix && differences.length) {
      const { jobs, unknown } = await repairJobs(db, country(cc), differences);
      const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
      await queue.enqueue(jobs);
      await queue.close();
      // Documents of listings PostgreSQL never had cannot be synced: remove them directly.
      for (const id of unknown) await opensearch.delete({ index: names.listingsAlias(country(cc)), id: `${country(cc)}:${id}` }, { ignore: [404] });
      console.log(`enqueued ${jobs.length} repairs; deleted ${unknown.length} unknown documents`);
    }
    if (differences.length) process.exitCode = 1;
  }));

program.command('seed')
  .description('load N generated realistic listings into PostgreSQL in bulk, then index them through the reindex path')
  .requiredOption('--country <cc>', 'country').requiredOption('--count <n>', 'number of listings', (v) => Number(v))
  .option('--seed <s>', 'random seed: the same seed gives the same listings', (v) => Number(v), 1)
  .action((opts: { country: string; count: number; seed: number }) => withSearchStack(async ({ db, opensearch }) => {
    // The generator's data packages are dev dependencies: load it only here.
    const { seedListings } = await import('./seed/seed-listings.js');
    const cc = country(opts.country);
    const begun = Date.now();
    const partner = await createPartnersService({ db }).create(`seed-${cc}-${opts.seed}-${Date.now()}`, 'admin');
    const pool = createDatabase(config.DATABASE_URL, 2);
    const bar = new SingleBar({ format: 'seed    {bar} {value}/{total} listings {percentage}% | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic);
    bar.start(opts.count, 0);
    await seedListings({ pool: pool.pool, country: cc, count: opts.count, seed: opts.seed, partnerId: partner.id, onProgress: (n) => bar.update(n) });
    bar.stop();
    await pool.close();
    const written = (Date.now() - begun) / 1000;
    const result = await reindexWithProgress(db, opensearch, cc);
    const total = (Date.now() - begun) / 1000;
    console.log(`seeded ${opts.count} listings in ${written.toFixed(1)} s; indexed ${result.documents} in ${(total - written).toFixed(1)} s; searchable after ${total.toFixed(1)} s`);
  }));

const outboxCommand = program.command('outbox').description('the index event outbox');
outboxCommand.command('status').description('pending events, the oldest one\'s age, and the queue').action(() => withDatabase(async ({ db }) => {
  const row = await pendingEventsSummary(db);
  const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  const counts = await queue.queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => 'Redis unreachable');
  await queue.close();
  const age = row.oldest ? `${((Date.now() - new Date(row.oldest).getTime()) / 1000).toFixed(1)} s` : '-';
  console.log(`pending events: ${row.pending}\noldest pending: ${age}\nqueue: ${JSON.stringify(counts)}`);
}));

await program.parseAsync();
