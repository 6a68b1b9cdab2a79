import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import t from 'tap';
import { lazyChildLoggerFactory } from '../../src/http/lazy-child-logger.js';
import { createLogger } from '../../src/platform/logger.js';

/** A logger at `level` whose lines are collected, and a request's lazy child of it. */
function requestLogger(level: string) {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  const parent = createLogger(level, 'api', stream) as unknown as FastifyBaseLogger;
  const log = lazyChildLoggerFactory.call(undefined as never, parent, { reqId: 'r-1' }, {}, undefined as never);
  return {
    log,
    lines: async () => {
      await new Promise((r) => setImmediate(r));
      return lines;
    },
  };
}

t.test('a line of the request carries its id, redacted as every line', async (t) => {
  const { log, lines } = requestLogger('info');
  log.info({ headers: { authorization: 'Bearer secret' } }, 'request served');
  const [line] = await lines();
  t.equal(line?.reqId, 'r-1');
  t.equal(line?.msg, 'request served');
  t.same(line?.headers, { authorization: '[redacted]' });
});

t.test('a level the logger drops writes nothing; a child of the request logger keeps its id', async (t) => {
  const { log, lines } = requestLogger('warn');
  log.info('not written');
  log.debug('not written');
  log.child({ part: 'webhooks' }).warn('written');
  t.same(
    (await lines()).map((l) => [l.msg, l.reqId, l.part]),
    [['written', 'r-1', 'webhooks']],
  );
});
