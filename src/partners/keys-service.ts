// Key rotation: a partner holds several keys, each created and revoked on its own. Claims,
// mappings and reviews belong to the partner, never to a key, so rotating keys keeps them.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, partners } from '../db/schema.js';
import { generateApiKey, hashApiKey } from './api-keys.js';

export interface KeyInfo {
  id: number;
  partnerId: number;
  createdAt: Date;
  revokedAt: Date | null;
}

export function createKeysService({ db }: { db: Db }) {
  return {
    /** A new key for an active partner, returned once and stored only as a hash; undefined for an unknown or revoked partner. */
    async create(partnerId: number): Promise<{ id: number; key: string } | undefined> {
      const key = generateApiKey();
      return db.transaction(async (tx) => {
        // Shared lock: a concurrent revocation of the partner waits, so it also revokes this key.
        const [partner] = await tx.select({ id: partners.id }).from(partners)
          .where(and(eq(partners.id, partnerId), isNull(partners.revokedAt))).for('share');
        if (!partner) return undefined;
        const [row] = await tx.insert(apiKeys).values({ partnerId, keyHash: hashApiKey(key) }).returning({ id: apiKeys.id });
        return { id: row!.id, key };
      });
    },

    /** Revokes one key; returns its hash (to announce) or undefined when `keyId` is no active key. */
    async revoke(keyId: number): Promise<string | undefined> {
      const [row] = await db.update(apiKeys).set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt))).returning({ keyHash: apiKeys.keyHash });
      return row?.keyHash;
    },

    /** Hashes of every key a partner ever held: after revoking the partner, all of them are to be announced. */
    async hashesOf(partnerId: number): Promise<string[]> {
      const rows = await db.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.partnerId, partnerId));
      return rows.map((r) => r.keyHash);
    },

    /** Every key, without its hash, by partner. */
    list(): Promise<KeyInfo[]> {
      return db.select({ id: apiKeys.id, partnerId: apiKeys.partnerId, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
        .from(apiKeys).orderBy(asc(apiKeys.partnerId), asc(apiKeys.id));
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
