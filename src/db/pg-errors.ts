// drizzle wraps driver errors (DrizzleQueryError); the PostgreSQL SQLSTATE sits on the cause.
const sqlState = (err: unknown): string | undefined => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    if (e.cause === e) break;
  }
  return undefined;
};

export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505';

/**
 * A statement refused for its data (SQLSTATE class 22, data exception, or 23, integrity
 * constraint): the SQLSTATE, else undefined. The error's message and parameters are not passed
 * on: they may hold the very data refused.
 */
export const refusedDataState = (err: unknown): string | undefined => {
  const state = sqlState(err);
  return state?.startsWith('22') || state?.startsWith('23') ? state : undefined;
};
