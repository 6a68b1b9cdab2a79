// Which fields of a Listing a write changes (docs/contract.md §20, §21), compared as GET shows them:
// a write whose result equals the stored listing changes nothing and commits nothing, and a version's
// history names exactly the fields whose shown value it changed. Pure.
import { isDeepStrictEqual } from 'node:util';
import { ListingSchema, type Listing } from '../schemas/listing.js';
import type { ContentView } from './listing-view.js';

export type ListingField = keyof Listing;

/** Every field of the Listing, in the order its answer shows them. */
export const LISTING_FIELDS = Object.keys(ListingSchema.properties) as ListingField[];

/** The values some fields of a listing had, as GET showed them. */
export type ListingFieldValues = Partial<Record<ListingField, unknown>>;

/** The fields a content write (PUT, PATCH, restore) sets. */
type ContentField = keyof ContentView;
const CONTENT_FIELDS = [
  'name',
  'address',
  'zip',
  'place',
  'latitude',
  'longitude',
  'keywords',
  'description',
  'emails',
  'phones',
  'links',
  'hours',
  'special_hours',
  'temporarily_closed',
  'time_zone',
  'categories',
  'active',
  'contact',
] as const satisfies readonly ContentField[];
const LISTS = ['emails', 'phones', 'links'] as const satisfies readonly ContentField[];
type ListField = (typeof LISTS)[number];

type Item = { readonly id?: string | undefined; readonly [member: string]: unknown };
const contentOf = ({ id: _id, ...content }: Item) => content;

/**
 * Whether a list as a write sends it holds the stored items: the same content in the same order,
 * and any id it sends is the stored item's. Items sent without ids (a partner that does not keep
 * ours, a bulk import) then match the stored ones, which keep their ids.
 */
export function sameItems(stored: readonly Item[], sent: readonly Item[]): boolean {
  return stored.length === sent.length && sent.every((item, i) => (item.id === undefined || item.id === stored[i]!.id) && isDeepStrictEqual(contentOf(item), contentOf(stored[i]!)));
}

function sameContent(field: ContentField, stored: Listing, sent: ContentView): boolean {
  if ((LISTS as readonly string[]).includes(field)) return sameItems(stored[field as ListField], sent[field as ListField]);
  if (field === 'categories')
    return isDeepStrictEqual(
      stored.categories.map((c) => c.id),
      sent.categories.map((c) => c.id),
    );
  return isDeepStrictEqual(stored[field], sent[field]);
}

/** The lists of a listing that live in tables of their own (listing-writes-dal.ts, SubObjects). */
export const SUB_OBJECT_LISTS = [...LISTS, 'categories'] as const satisfies readonly ContentField[];
export type SubObjectList = (typeof SUB_OBJECT_LISTS)[number];

/** The lists of `sent` that hold the stored items: an update leaves their rows, and ids, as stored. */
export const keptLists = (stored: Listing, sent: ContentView): Set<SubObjectList> => new Set(SUB_OBJECT_LISTS.filter((field) => sameContent(field, stored, sent)));

/** Whether a content write of `sent` would change nothing the stored listing shows. */
export const changesNothing = (stored: Listing, sent: ContentView): boolean => CONTENT_FIELDS.every((field) => sameContent(field, stored, sent));

/**
 * The fields whose shown value differs between two versions of a listing, with their values in
 * `before`; `version` is left out (every version moves it: the history adds it itself).
 */
export function changedFields(before: Listing, after: Listing): ListingFieldValues {
  const changed: ListingFieldValues = {};
  for (const field of LISTING_FIELDS) {
    if (field !== 'version' && !isDeepStrictEqual(before[field], after[field])) changed[field] = before[field];
  }
  return changed;
}

/** The names of the fields a change touched, in the Listing's order: those in `before`, and `version` when it moved. */
export const touchedFields = (before: ListingFieldValues, versionMoved: boolean): ListingField[] => LISTING_FIELDS.filter((field) => field in before || (versionMoved && field === 'version'));

/** `field`'s value before a change as the history records it: `before` when the change made it `after`, nothing when it left it as it was. */
export const changedValue = (field: ListingField, before: unknown, after: unknown): ListingFieldValues => (isDeepStrictEqual(before, after) ? {} : { [field]: before });
