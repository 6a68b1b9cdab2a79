import type { Db } from '../db/client.js';
import { generateApiKey, hashApiKey, sameHash } from './api-keys.js';
import { findPartnerByKeyHash, insertPartnerWithKey, listPartners, revokePartnerAndKeys, type Role } from './keys-dal.js';
import { createBoundedCache } from '../platform/bounded-cache.js';

export type { Role };
export interface Caller {
  partnerId: number;
  name: string;
  role: Role;
}

/** A caller as authentication found it, with the SHA-256 of its key: it names the key's rate-limit counter, unhashed again. */
export interface KeyHolder extends Caller {
  keyHash: string;
}

/**
 * Authenticated keys are remembered briefly, so that a request costs no database round trip for
 * its key. A revocation is announced to every instance, which forgets the key at once; without
 * the announcement a revoked key stops working within `cacheMs` (docs/operations.md: AUTH_CACHE_MS). Failed
 * keys are remembered apart, by the key as sent: a repeated bad key costs neither hashing nor a
 * look-up, and a flood of bad keys evicts only other bad keys, never a valid one.
 */
export function createPartnersService({ db, cacheMs = 0, maxCached = 10_000 }: { db: Db; cacheMs?: number; maxCached?: number }) {
  const accepted = createBoundedCache<KeyHolder>({ max: maxCached, ttlMs: cacheMs });
  const rejected = createBoundedCache<true>({ max: maxCached, ttlMs: cacheMs });
  let revocations = 0; // counts forget calls, so a look-up can tell whether one happened meanwhile

  async function lookup(hash: string): Promise<KeyHolder | undefined> {
    const row = await findPartnerByKeyHash(db, hash);
    if (!row || !sameHash(row.keyHash, hash)) return undefined;
    return { partnerId: row.partnerId, name: row.name, role: row.role, keyHash: hash };
  }

  return {
    /** Creates a partner with one key; the key is returned once and never stored in clear. */
    async create(name: string, role: Role): Promise<{ id: number; key: string }> {
      const key = generateApiKey();
      const id = await insertPartnerWithKey(db, name, role, hashApiKey(key));
      return { id, key };
    },

    list: () => listPartners(db),

    /** Revokes the partner and every key it holds; true when something was revoked. */
    revoke: (id: number): Promise<boolean> => revokePartnerAndKeys(db, id),

    /** Drops what is remembered about a key: it was revoked (src/partners/key-revocations.ts). */
    forget(keyHash: string): void {
      revocations++;
      accepted.delete(keyHash);
    },

    /** Drops every remembered key: revocations may have been missed. */
    forgetAll(): void {
      revocations++;
      accepted.clear();
    },

    /** The partner behind a key, or undefined for an unknown or revoked key. */
    async authenticate(key: string): Promise<KeyHolder | undefined> {
      if (rejected.get(key)) return undefined;
      const hash = hashApiKey(key);
      const cached = accepted.get(hash);
      if (cached) return cached;
      const before = revocations;
      const caller = await lookup(hash);
      // A revocation that arrived while the look-up ran may concern this key: answer, don't remember.
      if (!caller) rejected.set(key, true);
      else if (revocations === before) accepted.set(hash, caller);
      return caller;
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
