import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { createDatabase } from '../db/client.js';
import { createPartnersService } from '../partners/partners-service.js';
import { config, country, reindexWithProgress, withSearchStack } from './context.js';

export function registerSeed(program: Command): void {
  program
    .command('seed')
    .description('load N generated realistic listings into PostgreSQL in bulk, then index them through the reindex path')
    .requiredOption('--country <cc>', 'country')
    .requiredOption('--count <n>', 'number of listings', (v) => Number(v))
    .option('--seed <s>', 'random seed: the same seed gives the same listings', (v) => Number(v), 1)
    .action((opts: { country: string; count: number; seed: number }) =>
      withSearchStack(async ({ db, opensearch }) => {
        // The generator's data packages are dev dependencies: load it only here.
        const { seedListings } = await import('../seed/seed-listings.js');
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
      }),
    );
}
