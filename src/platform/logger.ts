// No personal data and no key in any log line (docs/security.md): credentials
// and image payloads are redacted, requests are logged without their query string, and errors of
// PostgreSQL and OpenSearch without the queries and parameters their messages and fields carry.
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { errorChain, isOpenSearchError, isPostgresError, isQueryError, type ErrorLike } from './dependency-errors.js';

export const REDACTED_PATHS = ['req.headers.authorization', 'headers.authorization', '*.authorization', '*.base64', 'body.base64', 'apiKey'];

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
}

/** Query strings carry phone numbers, addresses and partners' `source_id`s: only the path is logged. */
function serializeRequest(req: LoggedRequest) {
  return { method: req.method, url: req.url?.split('?')[0], remoteAddress: req.ip };
}

type PostgresFields = { code?: string; constraint?: string; table?: string; column?: string; routine?: string };

/** What a link of a dependency error's chain may show: kinds and codes, never values. */
function describe(e: ErrorLike): string {
  if (isQueryError(e)) return 'database query failed';
  if (isPostgresError(e)) {
    // The message itself may quote a value (`invalid input syntax for type bigint: "..."`).
    const { code, constraint, table, column } = e as PostgresFields;
    return `PostgreSQL error ${code}${table ? ` on ${table}` : ''}${column ? `.${column}` : ''}${constraint ? ` (${constraint})` : ''}`;
  }
  if (isOpenSearchError(e)) {
    const type = (e.meta as { body?: { error?: { type?: unknown } } }).body?.error?.type;
    return `OpenSearch ${String(e.name)}${e.meta?.statusCode ? ` ${String(e.meta.statusCode)}` : ''}${typeof type === 'string' ? ` ${type}` : ''}`;
  }
  return typeof e.message === 'string' ? e.message : String(e.name);
}

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const chain = [...errorChain(err)];
  if (!chain.some((e) => isQueryError(e) || isPostgresError(e) || isOpenSearchError(e))) return stdSerializers.err(err);
  const postgres = chain.find(isPostgresError) as PostgresFields | undefined;
  return {
    type: err.constructor.name,
    message: chain.map(describe).join('; caused by: '),
    ...(postgres ? { code: postgres.code, constraint: postgres.constraint, table: postgres.table, column: postgres.column, routine: postgres.routine } : {}),
    // The first line of a stack repeats the message: keep the frames only.
    stack: err.stack
      ?.split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}

/** `destination` defaults to stdout; tests pass a stream to read the lines back. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    name,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
