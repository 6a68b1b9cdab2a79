// The change feed and the export (docs/contract.md §14, §16).
import type { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { CHANGE_KINDS } from '../changes/change-kinds.js';

export const ChangesQuerySchema = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'A `cursor` or `next` of an earlier page; "now" for the current end of the feed. Absent: from the oldest change kept',
        errorMessage: 'must be a cursor from this feed or "now"',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Default 100', errorMessage: 'must be an integer from 1 to 1000' })),
  },
  { additionalProperties: false },
);

const ChangeSchema = Type.Object({
  cursor: Type.String({ description: 'Opaque: the feed continues after this change when sent as `after`' }),
  id: Type.String({ description: 'Listing id' }),
  kind: Type.Union(CHANGE_KINDS.map((kind) => Type.Literal(kind))),
  version: Type.Integer({ description: "The listing's version after the change (offers and partner reviews leave it as it was)" }),
  at: Type.String({
    format: 'date-time',
    description:
      "When the write recorded the change inside its transaction (at most the transaction's duration before its commit), ISO 8601 UTC. Positions follow commit order, so `at` may step back a little along the feed",
  }),
  fields: Type.Array(Type.String(), {
    description:
      'The Listing fields the change touched, `version` included when it moved; for `created` every field. ' +
      'Empty for offers and private reviews, which are not part of the Listing. GET .../history has their values',
  }),
});

export const ChangesPageSchema = Type.Object({
  changes: Type.Array(ChangeSchema),
  next: Type.String({ description: 'Send as `after` to continue; on an empty page the cursor given' }),
  hasMore: Type.Boolean({ description: 'More changes follow at once: ask again without waiting' }),
});
export type ChangesPage = Static<typeof ChangesPageSchema>;

export const ExportQuerySchema = Type.Object(
  {
    scope: Type.Optional(
      Type.Union([Type.Literal('claimed'), Type.Literal('all')], {
        default: 'claimed',
        description: '`claimed` (default): the listings you claim; `all`: every listing of the country',
        errorMessage: 'must be claimed or all',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The export's body: a string for the OpenAPI document, a stream for the handler, which sends it
 * as it is (streams are never serialised from a schema).
 */
export const ExportBodySchema = Type.Unsafe<Readable>({
  type: 'string',
  description:
    'NDJSON: one Listing a line (as GET /:country/listings/:id renders it; in scope `all` without `contact` ' +
    'unless you claim the listing), then {"end": {"count": N, "changes_after": "<cursor>"}}. A body without the end line is incomplete.',
});
