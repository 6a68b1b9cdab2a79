import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { publicUrls } from '../platform/config.js';
import { createListingWrites } from '../listings/change-listing.js';
import { createListingsService } from '../listings/listings-service.js';
import { createLogger } from '../platform/logger.js';
import { createPublisher } from '../outbox/publisher.js';
import { createIndexQueue } from '../outbox/queue.js';
import { createOffersService } from '../listings/offers-service.js';
import { createPartnersService } from '../partners/partners-service.js';
import { createReviewsService } from '../reviews/reviews-service.js';
import { projectPath } from '../platform/project-paths.js';
import { SAMPLE_LISTINGS, SAMPLE_OFFERS, SAMPLE_REVIEWS } from '../sample/sample-data.js';
import { config, withDatabase } from './context.js';

export function registerSample(program: Command): void {
  program
    .command('sample')
    .description('create a demo partner and a few sample listings in "de" once')
    .action(() =>
      withDatabase(async ({ db }) => {
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
        const ids: number[] = [];
        for (const input of SAMPLE_LISTINGS) ids.push(Number((await listings.create(caller, 'de', input)).id));
        // Website reviews are written by the service's own (admin) partner, whose key nobody needs.
        const website = await createPartnersService({ db }).create('sample website', 'admin');
        const reviews = createReviewsService({ db, writes, maxPerPartner: config.REVIEWS_PER_PARTNER_PER_LISTING });
        for (const { listing, review } of SAMPLE_REVIEWS) await reviews.create({ partnerId: website.id, name: 'sample website', role: 'admin' }, 'de', ids[listing]!, review);
        const offers = createOffersService({ db, writes });
        for (const { listing, offer } of SAMPLE_OFFERS) await offers.put(caller, 'de', ids[listing]!, offer);
        await queue.close();
        mkdirSync(projectPath('.stack'), { recursive: true });
        writeFileSync(keyFile, `${demo.key}\n`);
        console.error(`created ${SAMPLE_LISTINGS.length} sample listings in "de"; demo key (also in .stack/demo-key): ${demo.key}`);
      }),
    );
}
