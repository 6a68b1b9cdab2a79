// POST /:country/listings/match (docs/contract.md §17): the request and the candidates.
import { Type, type Static } from '@sinclair/typebox';
import { text } from './common.js';

export const MatchRequestSchema = Type.Object(
  {
    name: text(1, 200, { description: 'Business name as the caller has it' }),
    address: Type.Optional(text(1, 200, { description: 'Street and house number ("Hauptstr. 12")' })),
    zip: Type.Optional(text(1, 20)),
    place: Type.Optional(text(1, 100)),
    phone: Type.Optional(text(1, 40, { description: 'E.164, or national in the country\'s numbering plan ("030 1234567")' })),
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90, errorMessage: 'must be a number between -90 and 90' })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180, errorMessage: 'must be a number between -180 and 180' })),
    website: Type.Optional(text(1, 2048, { description: 'URL or host; compared by host without "www."' })),
  },
  {
    additionalProperties: false,
    description: '`name` and at least one of: address, zip + place, phone, latitude + longitude',
  },
);
export type MatchRequest = Static<typeof MatchRequestSchema>;

const similarity = (description: string) => Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });
const agreement = (description: string) => Type.Union([Type.Boolean(), Type.Null()], { description });

export const MatchCandidateSchema = Type.Object({
  id: Type.String({ description: 'Listing id' }),
  score: Type.Number({ minimum: 0, maximum: 1, description: 'Calibrated: of candidates scored ≥ 0.8, at least 98 % are the listing meant' }),
  name: Type.String(),
  address: Type.String(),
  zip: Type.String(),
  place: Type.String(),
  distance_km: Type.Optional(Type.Number({ description: 'From latitude/longitude, when both sides have coordinates' })),
  signals: Type.Object({
    name: Type.Number({ minimum: 0, maximum: 1, description: 'Name similarity after folding, legal forms dropped' }),
    address: similarity('Address similarity (street, house number, zip, place); null when no part can be compared'),
    phone: agreement('A phone of the listing is the phone given; null when either has none'),
    website: agreement('The website hosts agree; null when either has none'),
    distance_km: Type.Union([Type.Number(), Type.Null()], { description: 'null without coordinates on both sides' }),
  }),
});
export type MatchCandidateResult = Static<typeof MatchCandidateSchema>;

export const MatchResponseSchema = Type.Object({
  candidates: Type.Array(MatchCandidateSchema, { maxItems: 5, description: 'Best first; none scored below 0.3' }),
});
export type MatchResponse = Static<typeof MatchResponseSchema>;
