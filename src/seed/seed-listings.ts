// Writes generated listings to PostgreSQL in large batches (one INSERT … SELECT FROM unnest per
// table and batch), bypassing the per-listing write path: the caller indexes them afterwards
// through the reindex path. Dev tooling: imported dynamically by the CLI.
import type pg from 'pg';
import { createListingGenerator } from './listing-generator.js';

const SEPARATOR = '\u001f'; // joins a row's keywords into one text value

export interface SeedOptions {
  pool: pg.Pool;
  country: string;
  count: number;
  seed: number;
  partnerId: number;
  batchSize?: number;
  onProgress?: (done: number) => void;
}

export async function seedListings(opts: SeedOptions): Promise<number> {
  const { pool, country } = opts;
  const categories = (await pool.query<{ id: string; name: string }>('select id, name from categories where country = $1', [country])).rows;
  if (categories.length === 0) throw new Error(`no categories for ${country}: run \`npm run cli -- categories import\` first`);
  const next = createListingGenerator({ country, seed: opts.seed, categories });
  const batchSize = opts.batchSize ?? 5000;
  let done = 0;
  while (done < opts.count) {
    const batch = Array.from({ length: Math.min(batchSize, opts.count - done) }, next);
    const client = await pool.connect();
    try {
      await client.query('begin');
      const ids = (
        await client.query<{ id: string }>(
          `insert into listings (country, name, address, zip, place, latitude, longitude, keywords, hours, active, suppressed, created_by, claimed_by, version)
         select $1, n, a, z, p, lat, lon, case when k = '' then '{}'::text[] else string_to_array(k, $13) end, h::jsonb, act, sup, $12, $12, 1
         from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::text[], $9::text[], $10::bool[], $11::bool[])
           with ordinality as t(n, a, z, p, lat, lon, k, h, act, sup, ord)
         order by ord
         returning id`,
          [
            country,
            batch.map((l) => l.name),
            batch.map((l) => l.address),
            batch.map((l) => l.zip),
            batch.map((l) => l.place),
            batch.map((l) => l.latitude),
            batch.map((l) => l.longitude),
            batch.map((l) => l.keywords.join(SEPARATOR)),
            batch.map((l) => JSON.stringify(l.hours)),
            batch.map((l) => l.active),
            batch.map((l) => l.suppressed),
            opts.partnerId,
            SEPARATOR,
          ],
        )
      ).rows.map((r) => Number(r.id));
      await client.query(`insert into listing_categories (listing_id, position, country, category_id) select id, 0, $1, c from unnest($2::bigint[], $3::text[]) as t(id, c)`, [
        country,
        ids,
        batch.map((l) => l.categoryId),
      ]);
      await client.query(`insert into listing_phones (listing_id, position, type, number) select id, 0, 'landline', n from unnest($1::bigint[], $2::text[]) as t(id, n)`, [
        ids,
        batch.map((l) => l.phone),
      ]);
      const reviews = batch.flatMap((l, i) => l.reviews.map((r, j) => ({ listingId: ids[i]!, sourceId: `seed-${ids[i]}-${j}`, ...r })));
      if (reviews.length) {
        await client.query(
          `insert into reviews (listing_id, partner_id, origin, source_id, reviewer, reviewed, title, text, rating, date_time, reviewed_at)
           select id, $1, 'website', s, 'Gast', '', '', 'Bewertung', r, to_char(t.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), t.at
           from unnest($2::bigint[], $3::text[], $4::int[], $5::timestamptz[]) as t(id, s, r, at)`,
          [opts.partnerId, reviews.map((r) => r.listingId), reviews.map((r) => r.sourceId), reviews.map((r) => r.rating), reviews.map((r) => new Date(Date.now() - r.daysAgo * 86_400_000))],
        );
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    done += batch.length;
    opts.onProgress?.(done);
  }
  // Fresh planner statistics: after a bulk load they still describe the empty tables (and where
  // autovacuum is off nothing else updates them). Without them the reindex's page query sorts
  // the whole table for every page instead of walking the primary key.
  await pool.query('analyze listings, listing_categories, listing_phones, reviews');
  return done;
}
