import { is, Param, Placeholder, type Query, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

// The dialect of our database handles (drizzle's defaults: no casing; src/db/client.ts), to turn a
// statement into its text once.
const dialect = new PgDialect();

/**
 * A named statement whose SQL is built and written once, the first time it runs, with a
 * `sql.placeholder(name)` wherever a value goes; each run fills the placeholders and executes it
 * on `db` (the pool, or a transaction's connection). Drizzle builds a write's SQL anew on every
 * call, a real share of a write's CPU (docs/performance.md), and
 * PostgreSQL parses a named statement once per connection instead of on every run.
 *
 * Values fill placeholders the way drizzle binds a literal value: through the column's encoder
 * (a `jsonb` column's JSON text), except null, which stays SQL NULL. Drizzle's own prepared
 * statements encode null too, so a nullable `jsonb` column would store JSON `null`. A value with
 * no placeholder of its name is a programming error (a column added to the caller and not to the
 * statement would be dropped silently), and so is a placeholder left without a value or with
 * `undefined`, which here cannot mean the column's default as it does in drizzle's insert. A column's
 * `$defaultFn` would run once, when the statement is built: give such a column a placeholder.
 */
export function preparedStatement<Values extends object, Row = Record<string, unknown>>(name: string, build: (db: DbOrTx) => SQLWrapper): (db: DbOrTx, values: Values) => Promise<Row[]> {
  let compiled: { query: Query; names: ReadonlySet<string> } | undefined;
  return async (db, values) => {
    compiled ??= compile(build(db));
    for (const key of Object.keys(values)) {
      if (!compiled.names.has(key)) throw new Error(`prepared statement ${name} has no placeholder "${key}"`);
    }
    const params = compiled.query.params.map((param) => fill(param, values as Record<string, unknown>, name));
    const result = await db._.session.prepareQuery({ sql: compiled.query.sql, params }, undefined, name, false).execute();
    return (result as { rows: Row[] }).rows;
  };
}

function compile(statement: SQLWrapper): { query: Query; names: ReadonlySet<string> } {
  const { sql, params } = dialect.sqlToQuery(statement.getSQL());
  const names = new Set<string>();
  for (const param of params) {
    const placeholder = placeholderOf(param);
    if (placeholder) names.add(placeholder.name);
  }
  return { query: { sql, params }, names };
}

/** The placeholder a parameter stands for: bare (inside `sql`) or bound to a column's encoder (insert values). */
function placeholderOf(param: unknown): Placeholder | undefined {
  if (is(param, Placeholder)) return param;
  if (is(param, Param) && is(param.value, Placeholder)) return param.value;
  return undefined;
}

function fill(param: unknown, values: Record<string, unknown>, statement: string): unknown {
  const placeholder = placeholderOf(param);
  if (!placeholder) return param;
  const value = values[placeholder.name];
  if (value === undefined) throw new Error(`prepared statement ${statement} needs a value for "${placeholder.name}"`);
  return value === null || !is(param, Param) ? value : param.encoder.mapToDriverValue(value);
}
