import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = any($1::bigint[])`: one array parameter instead of drizzle's `in ($1, …, $n)`, whose
 * thousands of parameters cost PostgreSQL more to parse and plan than to run (bulk reads).
 */
export const anyOf = (column: Column, ids: readonly number[]): SQL => sql`${column} = any(${sql.param(ids)}::bigint[])`;
