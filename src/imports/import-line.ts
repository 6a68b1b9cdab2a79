// One line of a bulk import as an item (docs/contract.md §19): parsed and checked as the body of
// POST /:country/listings is, with a source_id required; a line that fails says why with the
// Error object of §11, its details naming each field's path.
import { bodyCheck } from '../schemas/body-validation.js';
import { ListingInputSchema, type ListingInput } from '../schemas/listing.js';
import type { LineError } from './imports-dal.js';

export type ParsedLine = { ok: true; input: ListingInput & { source_id: string }; sourceId: string } | { ok: false; error: LineError; sourceId: string | null };

const checkListing = bodyCheck(ListingInputSchema);

const invalid = (message: string, details: string[], sourceId: string | null = null): ParsedLine => ({ ok: false, error: { type: 'validation', message, details }, sourceId });

/** `content` null: the line was longer than `maxLineBytes` and was not kept. */
export function parseImportLine(content: string | null, maxLineBytes: number): ParsedLine {
  if (content === null) return invalid(`the line is longer than ${maxLineBytes} bytes`, [`line: must be at most ${maxLineBytes} bytes`]);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    return invalid('the line is not JSON', [`line: ${(err as Error).message}`]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('the line is not a JSON object', ['body: must be an object']);
  const raw = (value as { source_id?: unknown }).source_id;
  const sourceId = typeof raw === 'string' ? raw : null;
  const details = checkListing(value);
  if (raw === undefined) details.unshift('source_id: is required');
  if (details.length) return invalid(`${details.length} check${details.length === 1 ? '' : 's'} failed`, details, sourceId);
  return { ok: true, input: value as ListingInput & { source_id: string }, sourceId: sourceId! };
}
