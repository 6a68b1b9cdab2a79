import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, partners } from '../db/schema.js';
import { generateApiKey, hashApiKey, sameHash } from './api-keys.js';

export type Role = 'partner' | 'admin';
export interface Caller {
  partnerId: number;
  name: string;
  role: Role;
}

/**
 * Authenticated keys are remembered briefly, so that a request costs no database round trip for
 * its key. A revocation is announced to every instance, which forgets the key at once; without
 * the announcement a revoked key stops working within `cacheMs` (README: AUTH_CACHE_MS).
 */
export function createPartnersService({ db, cacheMs = 0 }: { db: Db; cacheMs?: number }) {
  const cache = new Map<string, { caller: Caller | undefined; until: number }>();
  const MAX_CACHED = 10_000;

  async function lookup(hash: string): Promise<Caller | undefined> {
    const [row] = await db.select({ partnerId: partners.id, name: partners.name, role: partners.role, keyHash: apiKeys.keyHash })
      .from(apiKeys).innerJoin(partners, eq(partners.id, apiKeys.partnerId))
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt), isNull(partners.revokedAt)));
    if (!row || !sameHash(row.keyHash, hash)) return undefined;
    return { partnerId: row.partnerId, name: row.name, role: row.role };
  }

  return {
    /** Creates a partner with one key; the key is returned once and never stored in clear. */
    async create(name: string, role: Role): Promise<{ id: number; key: string }> {
      const key = generateApiKey();
      return db.transaction(async (tx) => {
        const [partner] = await tx.insert(partners).values({ name, role }).returning({ id: partners.id });
        await tx.insert(apiKeys).values({ partnerId: partner!.id, keyHash: hashApiKey(key) });
        return { id: partner!.id, key };
      });
    },

    list() {
      return db.select({ id: partners.id, name: partners.name, role: partners.role, createdAt: partners.createdAt, revokedAt: partners.revokedAt })
        .from(partners).orderBy(asc(partners.id));
    },

    /** Revokes the partner and every key it holds; true when something was revoked. */
    async revoke(id: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const now = new Date();
        const revoked = await tx.update(partners).set({ revokedAt: now })
          .where(and(eq(partners.id, id), isNull(partners.revokedAt))).returning({ id: partners.id });
        await tx.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.partnerId, id), isNull(apiKeys.revokedAt)));
        return revoked.length > 0;
      });
    },

    /** Drops what is remembered about a key: it was revoked (src/partners/key-revocations.ts). */
    forget(keyHash: string): void {
      cache.delete(keyHash);
    },

    /** Drops every remembered key: revocations may have been missed. */
    forgetAll(): void {
      cache.clear();
    },

    /** The partner behind a key, or undefined for an unknown or revoked key. */
    async authenticate(key: string): Promise<Caller | undefined> {
      const hash = hashApiKey(key);
      const now = Date.now();
      const cached = cache.get(hash);
      if (cached && cached.until > now) return cached.caller;
      const caller = await lookup(hash);
      if (cacheMs > 0) {
        if (cache.size >= MAX_CACHED) cache.clear(); // bounded: unknown keys cannot grow it without limit
        cache.set(hash, { caller, until: now + cacheMs });
      }
      return caller;
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
