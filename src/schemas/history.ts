// A listing's history (docs/contract.md §21).
import { Type, type Static } from '@sinclair/typebox';
import { CHANGE_KINDS } from '../changes/change-kinds.js';
import { WRITE_CHANNELS } from '../changes/write-channels.js';

const literals = (values: readonly string[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );

/** A version number of a listing, as `?version=`, `before` and a restore name it. */
const VersionNumber = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description, errorMessage: 'must be a version number (an integer from 1)' });

export const VersionQuerySchema = Type.Object({
  version: Type.Optional(VersionNumber('The listing as it was at this version (404 when it is unknown or past HISTORY_RETENTION_DAYS)')),
});

export const HistoryQuerySchema = Type.Object(
  {
    before: Type.Optional(VersionNumber("Versions below this one: a previous page's `next`. Absent: from the newest")),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Default 20', errorMessage: 'must be an integer from 1 to 100' })),
  },
  { additionalProperties: false },
);

const FieldChangeSchema = Type.Object({
  field: Type.String({ description: 'A top-level field of the Listing' }),
  from: Type.Unknown({ description: 'Its value before the version, as GET showed it (null for `created`); "<hidden>" for a contact you may not see' }),
  to: Type.Unknown({ description: 'Its value at the version' }),
});

const HistoryEntrySchema = Type.Object({
  version: Type.Integer(),
  at: Type.String({ format: 'date-time', description: 'When the write recorded it, ISO 8601 UTC' }),
  change: literals(CHANGE_KINDS),
  by: literals(['you', 'partner', 'admin', 'system'], { description: "you: your own change; partner: another partner's; admin: the service's staff; system: the service itself" }),
  by_partner: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Admins only: the id of the partner whose key made the change' })),
  channel: Type.Optional(literals(WRITE_CHANNELS, { description: 'Admins only: how the change came: api (a partner key), admin (an admin key), import, system' })),
  fields: Type.Array(FieldChangeSchema, { description: 'Every field the version changed, `version` included; for `created` every field' }),
});

export const HistoryPageSchema = Type.Object({
  versions: Type.Array(HistoryEntrySchema, { description: 'Newest first' }),
  next: Type.Optional(Type.Integer({ description: 'Send as `before` for older versions; absent on the last page' })),
});
export type HistoryPageBody = Static<typeof HistoryPageSchema>;

export const RestoreBodySchema = Type.Object(
  {
    version: VersionNumber('The version whose content (every field a PUT sets) becomes the next version'),
  },
  { additionalProperties: false },
);
