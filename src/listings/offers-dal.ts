// The SQL of a listing's offer (docs/contract.md §7).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { offers } from '../db/schema.js';

export interface StoredOffer {
  message: string;
  url: string;
}

export async function upsertOffer(tx: DbOrTx, listingId: number, offer: StoredOffer): Promise<void> {
  await tx
    .insert(offers)
    .values({ listingId, ...offer })
    .onConflictDoUpdate({ target: offers.listingId, set: { ...offer, updatedAt: new Date() } });
}

export async function findOffer(db: DbOrTx, listingId: number): Promise<StoredOffer | undefined> {
  const [offer] = await db.select({ message: offers.message, url: offers.url }).from(offers).where(eq(offers.listingId, listingId));
  return offer;
}

/** Deletes the offer of a listing; returns whether it had one. */
export async function deleteOffer(tx: DbOrTx, listingId: number): Promise<boolean> {
  const deleted = await tx.delete(offers).where(eq(offers.listingId, listingId)).returning({ listingId: offers.listingId });
  return deleted.length > 0;
}
