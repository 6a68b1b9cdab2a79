// One log line per request, written when its answer has gone out (Fastify's own logging writes
// two: on arrival and on completion). Every failed request is logged; of the successful ones only
// the configured share, because at thousands of requests a second the lines cost CPU and disk
// while telling nothing that the metrics (/metrics) do not already count.
import type { FastifyInstance } from 'fastify';

export function installRequestLog(app: FastifyInstance, { successSampleRate }: { successSampleRate: number }): void {
  app.addHook('onResponse', (request, reply, done) => {
    const failed = reply.statusCode >= 400;
    if (failed || (successSampleRate > 0 && Math.random() < successSampleRate)) {
      const line = { req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 };
      if (reply.statusCode >= 500) request.log.error(line, 'request failed');
      else request.log.info(line, failed ? 'request refused' : 'request served');
    }
    done();
  });
}
