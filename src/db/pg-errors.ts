// drizzle wraps driver errors (DrizzleQueryError); the PostgreSQL SQLSTATE sits on the cause.
const sqlState = (err: unknown): string | undefined => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    if (e.cause === e) break;
  }
  return undefined;
};

export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505';
