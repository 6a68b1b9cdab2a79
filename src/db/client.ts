import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { projectPath } from '../platform/project-paths.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle or the database itself: the write path accepts either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// Postgres bigint (int8) comes back as a string by default; our ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Session limits in milliseconds, 0 for none. */
export interface DatabaseTimeouts {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

/**
 * `timeouts` bound how long a request can wait on PostgreSQL: a statement, a lock held by another
 * transaction, a transaction its client forgot. The API and the indexer pass them; ops commands
 * (migrations, seed, reindex) run long statements on purpose and pass none.
 */
export function createDatabase(url: string, poolSize = 10, timeouts?: DatabaseTimeouts): Database {
  // No JIT: our queries are short, and PostgreSQL compiled the listing read (cost inflated by its
  // correlated subqueries) for about a second per call; see src/listings/listing-records.ts.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: '-c jit=off',
    ...(timeouts && {
      statement_timeout: timeouts.statementMs,
      lock_timeout: timeouts.lockMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    }),
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // No `casing` option: prepared statements compile with drizzle's default dialect (prepared-statement.ts).
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

const migrationsFolder = projectPath('drizzle');

export async function runMigrations(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder });
}
