// Key rotation: a partner holds several keys, each created and revoked on its own. Claims,
// mappings and reviews belong to the partner, never to a key, so rotating keys keeps them.
import type { Db } from '../db/client.js';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { insertKey, keyHashesOf, listKeys, revokeKey, type KeyInfo } from './keys-dal.js';

export type { KeyInfo };

export function createKeysService({ db }: { db: Db }) {
  return {
    /** A new key for an active partner, returned once and stored only as a hash; undefined for an unknown or revoked partner. */
    async create(partnerId: number): Promise<{ id: number; key: string } | undefined> {
      const key = generateApiKey();
      const row = await insertKey(db, partnerId, hashApiKey(key));
      return row && { id: row.id, key };
    },

    /** Revokes one key; returns its hash (to announce) or undefined when `keyId` is no active key. */
    revoke: (keyId: number): Promise<string | undefined> => revokeKey(db, keyId),

    /** Hashes of every key a partner ever held: after revoking the partner, all of them are to be announced. */
    hashesOf: (partnerId: number): Promise<string[]> => keyHashesOf(db, partnerId),

    /** Every key, without its hash, by partner. */
    list: (): Promise<KeyInfo[]> => listKeys(db),
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
