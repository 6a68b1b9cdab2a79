// Ids of listings, images and reviews are PostgreSQL bigints (up to 19 digits). Ours come from
// sequences that stay far below 2^53, so a well-formed id beyond that names nothing that exists.
import { notFound } from '../platform/errors.js';

/** The id as a number, or undefined when it is too large to name an existing record. */
export function existingIdOrUndefined(value: string): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The id of a `what` in a path: 404, like any other id that does not exist, when too large. */
export function existingId(value: string, what: string): number {
  const id = existingIdOrUndefined(value);
  if (id === undefined) throw notFound(`${what} ${value}`);
  return id;
}
