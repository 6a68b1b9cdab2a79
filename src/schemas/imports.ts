// The HTTP contract of bulk imports (docs/contract.md §19).
import type { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { CountryParamsSchema, ID_PATTERN } from './common.js';

export const IMPORT_MEDIA_TYPE = 'application/x-ndjson';

export const ImportModeSchema = Type.Union([Type.Literal('upsert'), Type.Literal('replace')], {
  description: "`upsert` applies the lines; `replace` also deletes the caller's listings in this country whose source_id no line named, when no line failed",
});

export const ImportQuerySchema = Type.Object({ mode: Type.Optional(ImportModeSchema) }, { additionalProperties: false });

export const ImportParamsSchema = Type.Object({
  country: CountryParamsSchema.properties.country,
  id: Type.String({ pattern: ID_PATTERN, description: 'Import job id', errorMessage: 'must be an import id (decimal digits)' }),
});

export const ImportStatusSchema = Type.Union(
  ['queued', 'running', 'done', 'cancelled', 'failed'].map((s) => Type.Literal(s)),
  { description: '`failed` only when the job as a whole could not run (a corrupt gzip body); failed lines are counted, not fatal' },
);

export const ImportCountsSchema = Type.Object({
  lines: Type.Integer({ description: 'Non-empty lines of the body' }),
  processed: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  deleted: Type.Integer({ description: 'Listings mode=replace deleted' }),
  failed: Type.Integer(),
});

export const ImportJobSchema = Type.Object(
  {
    id: Type.String(),
    status: ImportStatusSchema,
    mode: ImportModeSchema,
    counts: ImportCountsSchema,
    created_at: Type.String({ format: 'date-time' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    error: Type.Optional(Type.String({ description: 'Why the job failed, or why mode=replace deleted nothing' })),
  },
  { title: 'ImportJob' },
);
export type ImportJob = Static<typeof ImportJobSchema>;

export const ImportListSchema = Type.Object({ imports: Type.Array(ImportJobSchema, { description: "The caller's jobs (an admin's: everyone's), newest first, at most 100" }) });

/** One line of GET /:country/imports/:id/results. */
export const ImportResultSchema = Type.Object(
  {
    line: Type.Integer({ description: 'Line number in the body, empty lines counted' }),
    source_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union(['created', 'updated', 'unchanged', 'failed'].map((s) => Type.Literal(s))),
    id: Type.Optional(Type.String({ description: 'The listing the line created, updated or left unchanged' })),
    version: Type.Optional(Type.Integer()),
    error: Type.Optional(Type.Object({ type: Type.String(), message: Type.String(), details: Type.Array(Type.String()) })),
  },
  { title: 'ImportResult' },
);
export type ImportResult = Static<typeof ImportResultSchema>;

/** What POST documents as its body: NDJSON, each line a listing with a source_id. */
export const ImportBodySchema = Type.String({ description: 'NDJSON: one listing a line, as the body of POST /:country/listings, each with a source_id; Content-Encoding: gzip accepted' });

/** What GET …/results streams. */
export const ImportResultsBodySchema = Type.Unsafe<Readable>({
  type: 'string',
  description: 'NDJSON: one line per processed line of the body, in line order: {line, source_id, status: created|updated|unchanged|failed, id?, version?, error?: {type, message, details}}',
});
