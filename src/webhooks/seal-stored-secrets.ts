// Seals the webhook secrets stored in clear text before secrets were encrypted at rest
// (src/webhooks/secret-box.ts). The indexer runs it at start; until then, and should it fail,
// a clear-text secret still signs, so partners notice nothing either way.
import type { DbOrTx } from '../db/client.js';
import type { SecretBox } from './secret-box.js';
import { findClearSecrets, replaceStoredSecrets } from './webhooks-dal.js';

const BATCH = 500;

/** Seals every clear-text secret (current and previous); returns how many subscriptions changed. */
export async function sealStoredSecrets(db: DbOrTx, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await findClearSecrets(db, BATCH);
    for (const row of rows) {
      const sealedOf = (stored: string) => (box.isSealed(stored) ? stored : box.seal(stored));
      await replaceStoredSecrets(db, row.id, row, { secret: sealedOf(row.secret), previousSecret: row.previousSecret === null ? null : sealedOf(row.previousSecret) });
    }
    sealed += rows.length;
    if (rows.length < BATCH) return sealed;
  }
}
