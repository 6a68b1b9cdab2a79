// One line of a bulk import as an item (docs/contract.md §19): parsed and checked as the body of
// POST /:country/listings is, with a source_id required; a line that fails says why with the
// Error object of §11, its details naming each field's path.
//
// Reading (JSON) and checking (the schema) are two steps: a line whose fingerprint shows it equal to
// what its listing already holds is read for its source_id and never checked (import-fingerprint.ts).
import { bodyCheck } from '../schemas/body-validation.js';
import { ListingInputSchema, type ListingInput } from '../schemas/listing.js';
import type { LineError } from './imports-dal.js';

export type ParsedLine = { ok: true; input: ListingInput & { source_id: string }; sourceId: string } | { ok: false; error: LineError; sourceId: string | null };

/** A line read as JSON but not yet checked: a JSON object and its source_id (when a string), or a failed line. */
export type ReadLine = { ok: true; value: Record<string, unknown>; sourceId: string | null } | Extract<ParsedLine, { ok: false }>;

const checkListing = bodyCheck(ListingInputSchema);

const invalid = (message: string, details: string[], sourceId: string | null = null): Extract<ParsedLine, { ok: false }> => ({ ok: false, error: { type: 'validation', message, details }, sourceId });

/** `content` null: the line was longer than `maxLineBytes` and was not kept. */
export function readImportLine(content: string | null, maxLineBytes: number): ReadLine {
  if (content === null) return invalid(`the line is longer than ${maxLineBytes} bytes`, [`line: must be at most ${maxLineBytes} bytes`]);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    return invalid('the line is not JSON', [`line: ${(err as Error).message}`]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('the line is not a JSON object', ['body: must be an object']);
  const raw = (value as { source_id?: unknown }).source_id;
  return { ok: true, value: value as Record<string, unknown>, sourceId: typeof raw === 'string' ? raw : null };
}

/** Checks a read line as the body of a create, with a source_id required. */
export function checkImportLine(read: ReadLine): ParsedLine {
  if (!read.ok) return read;
  const { value, sourceId } = read;
  const details = checkListing(value);
  if (value.source_id === undefined) details.unshift('source_id: is required');
  if (details.length) return invalid(`${details.length} check${details.length === 1 ? '' : 's'} failed`, details, sourceId);
  return { ok: true, input: value as ListingInput & { source_id: string }, sourceId: sourceId! };
}
