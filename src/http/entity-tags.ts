// Entity tags (RFC 9110 §8.8.3, §13.1): the If-None-Match of cached reads, and a listing's strong
// ETag, its version (docs/contract.md §20), with the If-Match that makes a write conditional on it.
import type { VersionPrecondition } from '../listings/change-listing.js';

/** The strong entity tag of a listing at `version`. */
export const listingEtag = (version: number): string => `"${version}"`;

/** The tags of a header's list, `W/` kept: `"7", W/"8"` → ['"7"', 'W/"8"']. */
const tagsOf = (header: string) =>
  header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** True when the If-None-Match header names `etag` (a list, weak validators and * included). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return tagsOf(header)
    .map((tag) => tag.replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * The versions an If-Match header allows a write to apply to; undefined without the header. The
 * comparison is strong: a weak tag (`W/"7"`) or one that is not a version allows none, so such a
 * write answers 412 with the current version. The route's header schema has refused a header that
 * is not a list of tags.
 */
export function versionPrecondition(header: string | undefined): VersionPrecondition | undefined {
  if (header === undefined) return undefined;
  const tags = tagsOf(header);
  if (tags.includes('*')) return 'any';
  return tags.flatMap((tag) => {
    const version = /^"([1-9][0-9]{0,15})"$/.exec(tag)?.[1];
    return version === undefined ? [] : [Number(version)];
  });
}

/** The write options a request's If-Match asks for (docs/contract.md §20). */
export const ifMatchOf = (headers: { 'if-match'?: string | undefined }): { ifMatch: VersionPrecondition | undefined } => ({ ifMatch: versionPrecondition(headers['if-match']) });
