import { Type, type StringOptions, type TSchema } from '@sinclair/typebox';

export const ErrorSchema = Type.Object(
  {
    type: Type.String({ description: 'Kind of error: validation, unauthorized, forbidden, not_found, conflict, ...' }),
    message: Type.String(),
    details: Type.Array(Type.String(), { description: 'One entry per failed check' }),
  },
  { $id: 'Error', title: 'Error' },
);

export const CountryParamsSchema = Type.Object({
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code of an enabled country' }),
});

/** A row id as PostgreSQL stores it: a positive bigint in decimal, without leading zeros. */
/** A bigint id as PostgreSQL stores it: 1–19 digits (src/http/ids.ts turns one too large to exist into a 404). */
export const ID_PATTERN = '^[1-9][0-9]{0,18}$';

/** The id of a `what` (listing, image, review) in a path: `must be a listing id (decimal digits)` when malformed. */
export const idParam = (what: string, options: Omit<StringOptions, 'pattern'> = {}) =>
  Type.String({ pattern: ID_PATTERN, ...options, errorMessage: `must be ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} id (decimal digits)` });

/** A sub-object id sent back on PUT: only compared with the stored ids, so any 1–16 digits pass. */
export const SubObjectIdSchema = Type.String({ pattern: '^[0-9]{1,16}$', errorMessage: 'must be an id (decimal digits)' });

/**
 * A string of `min`–`max` characters that fails with `must be 1–200 characters` (`must be at most
 * 200 characters` when it may be empty). `errorMessage: false` keeps Ajv's own words, as the search
 * filters always had; a `minLength` of 0 is left out, since it checks nothing.
 */
export function text(min: number, max: number, { errorMessage, ...options }: Omit<StringOptions, 'minLength' | 'maxLength'> & { errorMessage?: string | false } = {}) {
  const message = errorMessage ?? (min > 0 ? `must be ${min}–${max} characters` : `must be at most ${max} characters`);
  return Type.String({ ...(min > 0 ? { minLength: min } : {}), maxLength: max, ...options, ...(message === false ? {} : { errorMessage: message }) });
}

export const ListingParamsSchema = Type.Object({
  country: CountryParamsSchema.properties.country,
  id: idParam('listing', { description: 'Listing id' }),
});

/** Error responses every authenticated route may give, for the OpenAPI document and serialisation. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> => Object.fromEntries([400, 401, 404, 429, 500, 503, ...statuses].map((s) => [s, Type.Ref(ErrorSchema)]));

export const NoContent = Type.Null({ description: 'No content' });
export const SOURCE_ID_PATTERN = '^[A-Za-z0-9_-]{1,100}$';

/** An absolute http(s) URL of at most 2048 characters (links, offers). */
export const HttpUrlSchema = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s/$.?#][^\\s]*$', errorMessage: 'must be an absolute http(s) URL of at most 2048 characters' });

// --- Preconditions and dry runs (docs/contract.md §20) -------------------------------------------

/** `*`, or a comma-separated list of entity tags (`"7"`, `W/"7"`), as RFC 9110 writes them. */
const ENTITY_TAGS_PATTERN = '^[ \\t]*(\\*|(W/)?"[^"]*"([ \\t]*,[ \\t]*(W/)?"[^"]*")*)[ \\t]*$';
const entityTags = (description: string) => Type.Optional(Type.String({ pattern: ENTITY_TAGS_PATTERN, maxLength: 1000, description, errorMessage: 'must be * or entity tags such as "7"' }));

/** The headers of a write that may be made conditional on the listing's version. */
export const IfMatchHeadersSchema = Type.Object({
  'if-match': entityTags('"<version>" (the ETag you read) or *: the write applies only while the listing is at that version, else 412 and nothing is stored'),
});

/** The headers of a read that may answer 304. */
export const IfNoneMatchHeadersSchema = Type.Object({
  'if-none-match': entityTags('The ETag you hold: 304 with no body while the listing is still at that version'),
});

/** The 412 of a write whose If-Match names another version than the listing's. */
export const PreconditionFailedSchema = Type.Object(
  {
    type: Type.Literal('precondition_failed'),
    message: Type.String(),
    details: Type.Object({ current_version: Type.Integer({ description: "The listing's version now: read it again, reapply your change, retry" }) }),
  },
  { title: 'PreconditionFailed' },
);

/** The responses of a write that honours If-Match. */
export const preconditionResponses = { 412: PreconditionFailedSchema };

export const DryRunQuerySchema = Type.Object({
  dry_run: Type.Optional(
    Type.Boolean({
      description:
        'true: run every check and answer as the write would, storing and emitting nothing. The answer has no ETag; ' +
        "ids the write would assign (a new listing's, its url, new sub-objects') are null, and a new listing's version is 0",
      errorMessage: 'must be true or false',
    }),
  ),
});

export const NotModified = Type.Null({ description: 'Not modified: your copy (If-None-Match) is current' });
