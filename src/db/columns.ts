// Column shapes every table shares (schema.ts and the table modules it re-exports).
import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** A bigint id read as a JavaScript number: ids stay below 2^53 (src/http/ids.ts refuses larger ones). */
export const id = (name: string) => bigint(name, { mode: 'number' });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
