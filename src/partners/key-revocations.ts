// A revoked key stops working on every API instance at once: whoever revokes it (the ops CLI)
// publishes its hash on a Redis channel, and every instance drops the key from its cache. An
// instance whose subscription is down misses announcements: it forgets every cached key when the
// subscription is back, and until then a revoked key works at most AUTH_CACHE_MS (the cache's
// time to live). The database is the truth throughout; the channel only shortens the cache.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { PartnersService } from './partners-service.js';

export const revocationChannel = (prefix: string) => `${prefix}:revoked-keys`;

/** Announces keys already revoked in the database; fails when Redis cannot be reached. */
export async function announceRevokedKeys(redisUrl: string, channel: string, keyHashes: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: () => null });
  redis.on('error', () => {}); // surfaces as the rejected connect or publish below
  try {
    await redis.connect();
    for (const hash of keyHashes) await redis.publish(channel, hash);
  } finally {
    redis.disconnect();
  }
}

export interface RevokedKeysFollower {
  /** Settles once subscribed (or once subscribing failed, which is logged). */
  ready: Promise<void>;
  close(): void;
}

/** Subscribes an API instance to the announcements; its key cache forgets each revoked key. */
export function followRevokedKeys(opts: { redisUrl: string; channel: string; partners: Pick<PartnersService, 'forget' | 'forgetAll'>; logger: Logger }): RevokedKeysFollower {
  // A connection of its own: a subscribed connection runs no other commands. It reconnects and
  // subscribes again by itself (ioredis autoResubscribe).
  const subscriber = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  subscriber.on('error', () => {}); // while down, the cache's time to live applies
  let connected = false;
  subscriber.on('ready', () => {
    if (connected) {
      opts.partners.forgetAll();
      opts.logger.warn('key revocation channel back; forgot every cached key in case an announcement was missed');
    }
    connected = true;
  });
  subscriber.on('message', (channel: string, keyHash: string) => {
    if (channel === opts.channel) opts.partners.forget(keyHash);
  });
  const ready = subscriber.subscribe(opts.channel).then(
    () => undefined,
    (err: unknown) => opts.logger.warn({ err }, 'no key revocation channel; revoked keys work until the key cache expires'),
  );
  return { ready, close: () => subscriber.disconnect() };
}
