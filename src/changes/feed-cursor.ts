// The change feed's cursor (docs/contract.md §14): a feed position, made opaque so that clients
// store and send it back without reading meaning into it, and versioned so that its form can
// change later without breaking stored cursors.
const FORM = /^v1:(0|[1-9][0-9]{0,15})$/;

/** The cursor of feed position `position` (0: before the first change). */
export function encodeCursor(position: number): string {
  return Buffer.from(`v1:${position}`).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service handed out. */
export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(cursor)) return undefined;
  const match = FORM.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const position = Number(match[1]);
  // Only the one spelling we hand out: base64url decoding forgives stray trailing bits.
  return Number.isSafeInteger(position) && encodeCursor(position) === cursor ? position : undefined;
}
