// Every SQL statement on partners and api_keys. Keys are stored only as hashes (api-keys.ts).
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { apiKeys, partners } from '../db/schema.js';

/** docs/contract.md §2 and §22: analysts only read. */
export type Role = 'partner' | 'admin' | 'analyst';

export interface KeyInfo {
  id: number;
  partnerId: number;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The active partner holding the active key with this hash, with the stored hash. */
export async function findPartnerByKeyHash(db: DbOrTx, keyHash: string) {
  const [row] = await db
    .select({ partnerId: partners.id, name: partners.name, role: partners.role, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), isNull(partners.revokedAt)));
  return row;
}

/** A partner as the writes it makes on its own behalf name it (a bulk import's runner), revoked or not. */
export async function findPartnerById(db: DbOrTx, id: number) {
  const [row] = await db.select({ partnerId: partners.id, name: partners.name, role: partners.role }).from(partners).where(eq(partners.id, id));
  return row;
}

/** Inserts a partner and its first key in one transaction; returns the partner's id. */
export function insertPartnerWithKey(db: DbOrTx, name: string, role: Role, keyHash: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [partner] = await tx.insert(partners).values({ name, role }).returning({ id: partners.id });
    await tx.insert(apiKeys).values({ partnerId: partner!.id, keyHash });
    return partner!.id;
  });
}

export function listPartners(db: DbOrTx) {
  return db.select({ id: partners.id, name: partners.name, role: partners.role, createdAt: partners.createdAt, revokedAt: partners.revokedAt }).from(partners).orderBy(asc(partners.id));
}

/** Revokes the partner and every key it holds; true when the partner was active. */
export function revokePartnerAndKeys(db: DbOrTx, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const revoked = await tx
      .update(partners)
      .set({ revokedAt: now })
      .where(and(eq(partners.id, id), isNull(partners.revokedAt)))
      .returning({ id: partners.id });
    await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.partnerId, id), isNull(apiKeys.revokedAt)));
    return revoked.length > 0;
  });
}

/** Inserts a key for an active partner; undefined for an unknown or revoked partner. */
export function insertKey(db: DbOrTx, partnerId: number, keyHash: string): Promise<{ id: number } | undefined> {
  return db.transaction(async (tx) => {
    // Shared lock: a concurrent revocation of the partner waits, so it also revokes this key.
    const [partner] = await tx
      .select({ id: partners.id })
      .from(partners)
      .where(and(eq(partners.id, partnerId), isNull(partners.revokedAt)))
      .for('share');
    if (!partner) return undefined;
    const [row] = await tx.insert(apiKeys).values({ partnerId, keyHash }).returning({ id: apiKeys.id });
    return { id: row!.id };
  });
}

/** Revokes one active key; returns its hash, or undefined when `keyId` is no active key. */
export async function revokeKey(db: DbOrTx, keyId: number): Promise<string | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  return row?.keyHash;
}

/** Hashes of every key a partner ever held. */
export async function keyHashesOf(db: DbOrTx, partnerId: number): Promise<string[]> {
  const rows = await db.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.partnerId, partnerId));
  return rows.map((r) => r.keyHash);
}

/** Every key, without its hash, by partner. */
export function listKeys(db: DbOrTx): Promise<KeyInfo[]> {
  return db.select({ id: apiKeys.id, partnerId: apiKeys.partnerId, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt }).from(apiKeys).orderBy(asc(apiKeys.partnerId), asc(apiKeys.id));
}
