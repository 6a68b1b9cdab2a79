// Three limits (docs/contract.md §11). Per client address on every route, before authentication, so
// that requests with made-up keys, public routes and unknown paths cost at most that many hashes
// and look-ups (per instance). Per API key after authentication, shared by all instances through
// Redis and announced on every answer (RateLimit-* headers). And failed authentications per client
// address, shared like the per-key count, so that guessing keys from one address stops at a few
// dozen guesses a minute however many instances answer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../platform/errors.js';
import { clientNetwork } from '../rate-limit/client-network.js';
import { createLocalWindowCounter, createWindowCounter, type WindowCount } from '../rate-limit/window-counter.js';

/** Prefix of the Redis keys of the failed-authentication counters, one per client network. */
export const authFailureNamespace = (queuePrefix: string) => `${queuePrefix}:ratelimit:authfail:`;
/** Prefix of the Redis keys of the per-key limit's counters. */
export const keyRateLimitNamespace = (queuePrefix: string) => `${queuePrefix}:ratelimit:key:`;
/** What names an API key's counter: its hash, never the key itself. */
const keyCounterId = (keyHash: string) => keyHash.slice(0, 32);
/** The Redis key holding an API key's shared count (tests read it there without adding a hit). */
export const keyCounterName = (queuePrefix: string, keyHash: string) => keyRateLimitNamespace(queuePrefix) + keyCounterId(keyHash);

interface LimitOptions {
  redis: Redis;
  /** Prefix of the Redis keys of this limit's counters. */
  namespace: string;
  max: number;
  windowMs: number;
}

/**
 * Counted in each instance's memory, not in Redis: it bounds the work one instance does for one
 * address before authentication, which needs no shared count, and it spares every request a
 * second Redis round trip (docs/performance.md). N instances admit N × the limit per address.
 */
export function installAddressRateLimit(app: FastifyInstance, opts: Omit<LimitOptions, 'redis' | 'namespace'>): void {
  installLimit(app, opts, { counter: createLocalWindowCounter({ windowMs: opts.windowMs }), keyOf: (request) => clientNetwork(request.ip), announce: false });
}

/**
 * The per-key limit, installed on every scope of partner routes (countries, webhooks) with one
 * counter, so a key's requests to any of them count in one place.
 */
export function createKeyRateLimit(opts: LimitOptions): (app: FastifyInstance) => void {
  // The key's hash, never the key itself, names the counter: authentication has just computed it
  // (request.caller), so every key counted here is a valid one.
  const keyOf = (request: FastifyRequest) => keyCounterId(request.caller.keyHash);
  const counter = createWindowCounter({ redis: opts.redis, prefix: opts.namespace, windowMs: opts.windowMs });
  return (app) => installLimit(app, opts, { counter, keyOf, announce: true });
}

/** Answers a request without a valid key: 401, or 429 once its network has failed too often. */
export type AuthFailureLimit = (request: FastifyRequest, reply: FastifyReply) => AppError;

/**
 * Counts each answer 401 against the client's network (an IPv4 address, an IPv6 /64). Past `max`
 * in a window, requests without a valid key get 429 until the window ends; a valid key never
 * reaches this, so a partner behind the same address keeps working.
 */
export function createAuthFailureLimit(opts: LimitOptions): AuthFailureLimit {
  const counter = createWindowCounter({ redis: opts.redis, prefix: opts.namespace, windowMs: opts.windowMs });
  return (request, reply) => {
    const window = counter.hit(clientNetwork(request.ip));
    if (window.count <= opts.max) return new AppError('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');
    return rateLimited(reply, window, `too many failed authentications from this address: at most ${opts.max} per ${opts.windowMs / 1000} s`);
  };
}

function installLimit(
  app: FastifyInstance,
  opts: Pick<LimitOptions, 'max' | 'windowMs'>,
  {
    counter,
    keyOf,
    announce,
  }: {
    counter: { hit(key: string): WindowCount };
    keyOf: (request: FastifyRequest) => string;
    announce: boolean;
  },
): void {
  // A callback hook, not an async one: counting is synchronous, and every request passes here twice.
  app.addHook('onRequest', (request, reply, done) => {
    const window = counter.hit(keyOf(request));
    const exceeded = window.count > opts.max;
    if (announce || exceeded) setRateLimitHeaders(reply, opts.max, window);
    if (!exceeded) return done();
    done(rateLimited(reply, window, `rate limit of ${opts.max} requests per ${opts.windowMs / 1000} s exceeded`));
  });
}

/** The 429 of an exceeded limit, with Retry-After: the seconds until its window ends. */
function rateLimited(reply: FastifyReply, window: WindowCount, why: string): AppError {
  const seconds = Math.max(1, Math.ceil(window.resetMs / 1000));
  reply.header('retry-after', seconds);
  return new AppError('rate_limited', `${why}; retry after ${seconds} s`);
}

function setRateLimitHeaders(reply: FastifyReply, max: number, window: WindowCount): void {
  reply.header('ratelimit-limit', max);
  reply.header('ratelimit-remaining', Math.max(0, max - window.count));
  reply.header('ratelimit-reset', Math.max(1, Math.ceil(window.resetMs / 1000)));
}
