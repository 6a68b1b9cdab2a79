import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorSchema = Type.Object({
  type: Type.String({ description: 'Kind of error: validation, unauthorized, forbidden, not_found, conflict, ...' }),
  message: Type.String(),
  details: Type.Array(Type.String(), { description: 'One entry per failed check' }),
}, { $id: 'Error', title: 'Error' });

export const CountryParamsSchema = Type.Object({
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code of an enabled country' }),
});

export const ListingParamsSchema = Type.Object({
  country: CountryParamsSchema.properties.country,
  id: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'Listing id', errorMessage: 'must be a listing id (decimal digits)' }),
});

/** Error responses every authenticated route may give, for the OpenAPI document and serialisation. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries([400, 401, 404, 429, 500, 503, ...statuses].map((s) => [s, Type.Ref(ErrorSchema)]));

export const NoContent = Type.Null({ description: 'No content' });
export const SOURCE_ID_PATTERN = '^[A-Za-z0-9_-]{1,100}$';

/** An absolute http(s) URL of at most 2048 characters (links, offers). */
export const HttpUrlSchema = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s/$.?#][^\\s]*$', errorMessage: 'must be an absolute http(s) URL of at most 2048 characters' });
