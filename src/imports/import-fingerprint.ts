// Fingerprints of import lines (docs/contract.md §19, "unchanged"). A resubmitted catalogue is
// mostly lines equal, byte for byte, to the ones that created or last matched their listings. The
// mapping of a line's source_id keeps the fingerprint of the line it last applied or found equal and
// the version that left (src/db/schema.ts, mappings): while the listing still holds that version,
// the same line again is unchanged, and the runner neither checks it nor reads the listing to
// compare. Any write to the listing moves its version, so a stale fingerprint never matches.
import { createHash } from 'node:crypto';
import { ListingInputSchema } from '../schemas/listing.js';

/**
 * Raise when what a line means changes without the schema changing (how a listing is normalised or
 * validated): every stored fingerprint stops matching, and each line is checked and compared once
 * more. A change of the schema does the same by itself.
 */
const RULES_REVISION = 1;

const rules = createHash('sha256')
  .update(`${RULES_REVISION}\n${JSON.stringify(ListingInputSchema)}`)
  .digest();

/** The fingerprint of a line's content for a job in `country`, under the current rules. */
export function lineFingerprint(country: string, content: string): string {
  return createHash('sha256').update(rules).update(`${country}\n`).update(content).digest('base64url');
}
