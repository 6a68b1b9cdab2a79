// A listing's history as partners read it (docs/contract.md §21), rebuilt from the rows the writes
// recorded (listing_history in src/db/schema.ts): each row holds the values the fields its version
// changed had before it, so the listing at any version is the current one with the `before` of
// every newer version applied, newest first. Pure.
import type { ChangeKind } from '../changes/change-kinds.js';
import type { WriteChannel } from '../changes/write-channels.js';
import type { Caller } from '../partners/partners-service.js';
import type { Listing } from '../schemas/listing.js';
import { LISTING_FIELDS, touchedFields, type ListingField, type ListingFieldValues } from './listing-diff.js';

/** One version as stored, with the role of the partner who made it (null when that partner is unknown). */
export interface HistoryRow {
  version: number;
  kind: ChangeKind;
  at: Date;
  actorId: number | null;
  actorRole: 'partner' | 'admin' | null;
  channel: WriteChannel;
  /** Null for `created`. */
  before: ListingFieldValues | null;
}

/** Who made a version, from the reader's side. */
export type VersionAuthor = 'you' | 'partner' | 'admin' | 'system';

export interface FieldChange {
  field: ListingField;
  from: unknown;
  to: unknown;
}

export interface HistoryEntry {
  version: number;
  at: string;
  change: ChangeKind;
  by: VersionAuthor;
  by_partner?: string | null;
  channel?: WriteChannel;
  fields: FieldChange[];
}

/** What a reader may not see of a past contact (docs/contract.md §21). */
export const HIDDEN = '<hidden>';

/**
 * The listing at each version of `rows`, by version. `rows` are the newest versions, newest first,
 * down from `current.version`; a version missing among them (purged, or older than the history)
 * ends the rebuild, as nothing below it can be rebuilt.
 */
export function listingsAtVersions(current: Listing, rows: readonly HistoryRow[]): Map<number, Listing> {
  const states = new Map<number, Listing>();
  let state = current;
  for (const row of rows) {
    if (row.version !== state.version) break;
    states.set(row.version, state);
    if (row.before === null) break; // created: nothing before it
    state = { ...state, ...row.before, version: row.version - 1 } as Listing;
  }
  return states;
}

/** Who made `row`, as `caller` reads it: its own change, another partner's, an admin's or the service's. */
export function authorOf(row: Pick<HistoryRow, 'actorId' | 'actorRole' | 'channel'>, caller: Caller): VersionAuthor {
  if (row.actorId !== null && row.actorId === caller.partnerId) return 'you';
  if (row.channel === 'system' || row.actorId === null) return 'system';
  return row.actorRole === 'admin' ? 'admin' : 'partner';
}

/**
 * The entry of `row`, whose listing after it is `after`: every field it changed with its value
 * before and after (for `created`, every field, from null), `version` included, so that applying
 * the entries in order rebuilds the listing. `contact` values are `<hidden>` unless `seesContact`.
 */
export function historyEntry(row: HistoryRow, after: Listing, caller: Caller, seesContact: boolean): HistoryEntry {
  const fields = row.before === null ? LISTING_FIELDS.filter((field) => after[field] !== undefined) : touchedFields(row.before, true);
  const shown = (field: ListingField, value: unknown) => (field === 'contact' && !seesContact ? HIDDEN : value);
  const before = (field: ListingField): unknown => {
    if (row.before === null) return null;
    return field === 'version' ? row.version - 1 : row.before[field];
  };
  return {
    version: row.version,
    at: row.at.toISOString(),
    change: row.kind,
    by: authorOf(row, caller),
    ...(caller.role === 'admin' ? { by_partner: row.actorId === null ? null : String(row.actorId), channel: row.channel } : {}),
    fields: fields.map((field) => ({ field, from: shown(field, before(field)), to: shown(field, after[field]) })),
  };
}
