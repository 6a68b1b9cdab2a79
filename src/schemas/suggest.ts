import { Type, type Static } from '@sinclair/typebox';
import { text } from './common.js';

export const SuggestQuerySchema = Type.Object(
  {
    q: text(1, 100, {
      description:
        'What has been typed so far. The last word is a prefix (one letter or more); the words before it match as ' + 'the words of `what` do (typos, transliteration, category names, place)',
    }),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude of the user: nearer listings first', errorMessage: 'must be a number between -90 and 90' })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude of the user', errorMessage: 'must be a number between -180 and 180' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'Default 5', errorMessage: 'must be an integer from 1 to 10' })),
  },
  { additionalProperties: false },
);

export type SuggestQuery = Static<typeof SuggestQuerySchema>;

export const SuggestionSchema = Type.Object({
  type: Type.Union([Type.Literal('listing'), Type.Literal('category')]),
  id: Type.String({ description: 'A listing id (GET /{country}/listings/{id}) or a category id (the `category` of a Solr-mode search takes its name)' }),
  name: Type.String(),
  place: Type.Optional(Type.String({ description: 'Listings only' })),
  _dist_: Type.Optional(Type.Number({ description: 'Listings only, with lat/lon: distance in kilometres' })),
});
export type Suggestion = Static<typeof SuggestionSchema>;

export const SuggestResponseSchema = Type.Object({
  suggestions: Type.Array(SuggestionSchema, { description: 'Categories whose name matches, then listings; at most `limit`' }),
});
export type SuggestResponse = Static<typeof SuggestResponseSchema>;
