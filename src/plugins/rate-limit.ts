// Rate limit per API key on the shared Redis, so the limit holds across API instances
// (CONTRACT section 11). A Redis outage does not stop the API: the limiter is skipped.
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { bearerToken } from '../partners/api-keys.js';

export async function installRateLimit(app: FastifyInstance, opts: { redis: Redis; max: number; windowMs: number; namespace: string }) {
  await app.register(rateLimit, {
    max: opts.max,
    timeWindow: opts.windowMs,
    redis: opts.redis,
    nameSpace: `${opts.namespace}:ratelimit:`,
    skipOnError: true,
    enableDraftSpec: true, // RateLimit-Limit / -Remaining / -Reset and Retry-After
    // The key's hash, never the key itself, names the counter; requests without a key count per IP.
    keyGenerator: (request) => {
      const key = bearerToken(request.headers.authorization);
      return key ? createHash('sha256').update(key).digest('hex').slice(0, 32) : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `rate limit of ${context.max} requests per ${context.after} exceeded; retry after ${context.ttl} ms`),
  });
}
