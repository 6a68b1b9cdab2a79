// Fastify gives every request a child logger bound to its id. Most requests never log (one line
// at most, successes sampled: src/plugins/request-log.ts), yet pino builds each child's bindings
// and redaction up front, which costs every request some CPU (docs/performance.md). This
// factory hands out a stand-in that makes the child on the first line a request writes.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogCall = (...args: unknown[]) => void;

class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child, made once. */
  get logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options) as FastifyBaseLogger;
    return this.#child;
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  #write(level: Level, args: unknown[]): void {
    // A level the child would drop needs no child: nothing would be written. (A route's own
    // logLevel gives the child a level of its own: then the child decides.)
    if (this.#child === undefined && this.options.level === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.logger[level] as LogCall)(...args);
  }

  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the same child as Fastify's own, made only when first used. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => new LazyChildLogger(logger as Logger, bindings, options);
