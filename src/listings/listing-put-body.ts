// The PUT bodies a write makes from the stored listing, so that PATCH and restore go the way of a
// PUT (docs/contract.md §20, §21). PATCH: a merge patch applied to the listing as a PUT would send
// it back, the result checked as the body of a PUT. As the contract says: a member present replaces
// the stored value, `null` removes it (a nullable field becomes null, an omitted list empty, as on
// PUT), lists are replaced whole, and `hours` is merged by day (RFC 7396 applied to it), so
// `{"hours": {"monday": []}}` changes Monday only. Other objects (`contact`, `temporarily_closed`)
// are replaced whole, not merged member by member as RFC 7396 would: `{"temporarily_closed":
// {"until": null}}` must mean "closed until further notice", which a merge could not express.
// Restore: the content of a past version. Pure.
import { ListingInputSchema, type Listing, type ListingInput } from '../schemas/listing.js';
import { bodyCheck } from '../schemas/body-validation.js';
import { validationError } from '../platform/errors.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7396 §2: `patch` applied to `target`; neither is changed. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, applyMergePatch(result[key], value));
  }
  return result;
}

/** Fields a PUT body may not omit: `null` in a patch would remove them. */
const REQUIRED: ReadonlySet<string> = new Set(ListingInputSchema.required ?? []);

/**
 * The body of a PUT that keeps `listing` as it is: its fields but the read-only ones (docs/contract.md
 * §4), sub-objects with their ids, so that they keep them. `country_code` is left to the path.
 */
export function putBodyOf(listing: Listing): Record<string, unknown> {
  const { id: _id, url: _url, images: _images, claimed: _claimed, suppressed: _suppressed, version: _version, country_code: _country, ...content } = listing;
  return content;
}

const checkAsPut = bodyCheck(ListingInputSchema);

/** Sets `key` of `target` to `value`; defined, not assigned, so that a member named __proto__ stays a member. */
const define = (target: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** The merge of docs/contract.md §20: members replace, `null` removes, `hours` merges by day. */
export function mergeListingPatch(body: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...body };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else define(merged, field, field === 'hours' ? applyMergePatch(merged.hours, value) : value);
  }
  return merged;
}

/**
 * The PUT body that applying `patch` to `listing` makes; a 400 with every failed check of that
 * body, and `null` on a required field named as such.
 */
export function patchedListing(listing: Listing, patch: Record<string, unknown>): ListingInput {
  const merged = mergeListingPatch(putBodyOf(listing), patch);
  const nulled = Object.keys(patch).filter((field) => patch[field] === null && REQUIRED.has(field));
  const errors = [
    ...nulled.map((field) => `${field}: must not be null: it is required`),
    // The same field removed by that null would also be reported missing: once is enough.
    ...checkAsPut(merged).filter((line) => !nulled.some((field) => line === `${field}: is required`)),
  ];
  if (errors.length) throw validationError(errors);
  return merged as ListingInput;
}

/**
 * The PUT body that writes the content of `past` (the listing at an earlier version) over
 * `current`: its sub-objects keep the ids of those the listing still has, the others get new ones
 * (an id the listing no longer has would be refused). Claims, suppression and images are not
 * content: a restore leaves them as they are.
 */
export function restoredListing(past: Listing, current: Listing): ListingInput {
  const body = putBodyOf(past) as ListingInput;
  const ids = (items: readonly { id: string }[]) => new Set(items.map((item) => item.id));
  const keepKnown = <T extends { id?: string | undefined }>(items: readonly T[], known: ReadonlySet<string>) =>
    items.map(({ id, ...item }) => (id !== undefined && known.has(id) ? { id, ...item } : item));
  return {
    ...body,
    emails: keepKnown(body.emails ?? [], ids(current.emails)),
    phones: keepKnown(body.phones ?? [], ids(current.phones)),
    links: keepKnown(body.links ?? [], ids(current.links)),
  };
}
