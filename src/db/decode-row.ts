// A row a raw statement returned, as drizzle's select would give it.
import { getTableColumns, getTableName, type InferSelectModel, type Table } from 'drizzle-orm';

/**
 * Turns `raw` (the stored column names, the values as the driver gave them) into the row drizzle's
 * select returns for `table`: each column under its property name, through its column's decoder.
 * For statements drizzle cannot build, whose rows would otherwise be decoded by hand (a create
 * that returns what it inserted). A column missing from `raw` is a programming error.
 */
export function decodeRow<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!(column.name in raw)) throw new Error(`a row of ${getTableName(table)} without its column ${column.name}`);
    const value = raw[column.name];
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
