import { Type, type Static } from '@sinclair/typebox';
import { CountryParamsSchema, text } from './common.js';
import { ListingSummarySchema } from './listing.js';

/** A filter value: Ajv's own words when too long, as these parameters always answered. */
const filter = (description: string) => text(0, 200, { description, errorMessage: false });

export const ListingSearchQuerySchema = Type.Object(
  {
    solr: Type.Optional(Type.Boolean({ description: 'true: the experimental Solr-style search' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Default 50', errorMessage: 'must be an integer from 1 to 50' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Extension: skip this many results', errorMessage: 'must be an integer from 0 to 10000' })),
    cursor: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Extension: the `next` of the previous answer, to page on (also past offset 10000). Repeat the same query with it; ' + 'only `limit` may change. Not with `offset`.',
        errorMessage: 'must be the `next` of a previous answer',
      }),
    ),
    ids: Type.Optional(Type.String({ maxLength: 1000, description: 'Comma-separated listing ids (at most 50)' })),
    phone: Type.Optional(filter('E.164 number; encode + as %2B')),
    street: Type.Optional(filter('Street without house number; * is a wildcard')),
    place: Type.Optional(filter('Place name; * is a wildcard')),
    postCode: Type.Optional(filter('Post code; * is a wildcard')),
    number: Type.Optional(filter('House number; * is a wildcard')),
    what: Type.Optional(filter('Solr mode: name, category or keyword; typo-tolerant; "quoted" = exact phrase')),
    where: Type.Optional(filter('Solr mode: place name or post code; typo-tolerant; "quoted" = exact phrase')),
    category: Type.Optional(filter('Solr mode: exact category name (case-insensitive)')),
    open_now: Type.Optional(Type.Boolean({ description: 'Extension: true keeps only listings open now, in their own time zone' })),
    open_at: Type.Optional(
      Type.String({ maxLength: 40, description: 'Extension: only listings open at this instant; ISO 8601 with an offset (2026-12-24T18:30:00+01:00), within 366 days of now; not with open_now' }),
    ),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Solr mode: latitude of the centre', errorMessage: 'must be a number between -90 and 90' })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Solr mode: longitude of the centre', errorMessage: 'must be a number between -180 and 180' })),
    radius: Type.Optional(
      Type.Number({
        minimum: 0.1,
        maximum: 100,
        description: 'Solr mode, with lat/lon: the radius in km (default 20)',
        errorMessage: 'must be a number of km from 0.1 to 100',
      }),
    ),
    bbox: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Solr mode: only listings inside this box, `minLon,minLat,maxLon,maxLat` (WGS84 degrees, min < max); not with lat/lon',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('relevance'), Type.Literal('distance')], {
        description: 'Solr mode: `relevance` (score, then distance, then id) or `distance` (needs lat/lon). Default: relevance with `what`, ' + 'otherwise distance with lat/lon',
        errorMessage: 'must be relevance or distance',
      }),
    ),
  },
  { additionalProperties: false },
);

export type ListingSearchQuery = Static<typeof ListingSearchQuerySchema>;

export const SolrResultSchema = Type.Object(
  {
    id: Type.String({ description: 'country:lid' }),
    lid: Type.Integer(),
    cc: Type.String(),
    name: Type.String(),
    street: Type.String({ description: 'Street and house number' }),
    zip: Type.String(),
    place: Type.String(),
    partner: Type.String({ description: 'Name of the partner that created the listing' }),
    loc: Type.Optional(Type.String({ description: '"lat,lon"; absent when the listing has no coordinates' })),
    rating: Type.Optional(Type.Number({ description: 'Mean review rating, one decimal; only when reviewed' })),
    categories: Type.Array(Type.String()),
    boost: Type.Number(),
    _version_: Type.Integer(),
    _dist_: Type.Optional(Type.Number({ description: 'Distance from lat/lon in kilometres' })),
    _distboost_: Type.Optional(Type.Number({ description: 'Distance factor applied to the score' })),
    score: Type.Number(),
  },
  { $id: 'SolrResult', title: 'SolrResult' },
);

export type SolrResult = Static<typeof SolrResultSchema>;
/** What the indexer stores ready-made in each document: a SolrResult but for what the query adds. */
export type SolrResultView = Omit<SolrResult, '_dist_' | '_distboost_' | 'score'>;

export const ListingSearchResponseSchema = Type.Object({
  numFound: Type.Integer(),
  numReturned: Type.Integer(),
  listings: Type.Union([Type.Array(Type.Ref(ListingSummarySchema)), Type.Array(Type.Ref(SolrResultSchema))]),
  next: Type.Optional(Type.String({ description: 'Extension: present while more results remain; pass it as `cursor` with the same query for the next page' })),
});
export type ListingSearchResponse = Static<typeof ListingSearchResponseSchema>;

export const CategoriesQuerySchema = Type.Object(
  {
    name: Type.Optional(text(0, 100, { description: 'Category name; * is a wildcard; case- and accent-insensitive', errorMessage: false })),
  },
  { additionalProperties: false },
);

export const CategorySchema = Type.Object({ id: Type.String(), name: Type.String() });
export type Category = Static<typeof CategorySchema>;
export const CategoriesResponseSchema = Type.Object({ numFound: Type.Integer(), categories: Type.Array(CategorySchema) });
export type CategoriesPage = Static<typeof CategoriesResponseSchema>;
export { CountryParamsSchema };
