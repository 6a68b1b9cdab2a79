import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import t from 'tap';
import { preparedStatement } from '../../src/db/prepared-statement.js';
import * as schema from '../../src/db/schema.js';
import { listingChanges } from '../../src/db/schema.js';

// A pool that is never connected: both mistakes are refused before anything is sent.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
t.teardown(() => pool.end());
const db = drizzle(pool, { schema });

const insertChange = preparedStatement<Record<string, unknown>>('test_insert_change', (db) =>
  db.insert(listingChanges).values({
    listingId: sql.placeholder('listingId'),
    country: sql.placeholder('country'),
    kind: sql.placeholder('kind'),
    version: sql.placeholder('version'),
  }),
);

t.test('a value the statement has no placeholder for is refused, not dropped', async (t) => {
  await t.rejects(insertChange(db, { listingId: 1, country: 'de', kind: 'created', version: 1, claimedBy: 7 }), /prepared statement test_insert_change has no placeholder "claimedBy"/);
});

t.test('a placeholder without a value is refused, not sent as NULL', async (t) => {
  await t.rejects(insertChange(db, { listingId: 1, country: 'de', kind: 'created' }), /prepared statement test_insert_change needs a value for "version"/);
});
