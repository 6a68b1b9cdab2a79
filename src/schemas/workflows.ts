import { Type, type Static } from '@sinclair/typebox';
import { HttpUrlSchema, SOURCE_ID_PATTERN, text } from './common.js';

export const ClaimBodySchema = Type.Union(
  [
    Type.Object(
      {
        source_id: Type.Optional(Type.String({ pattern: SOURCE_ID_PATTERN, errorMessage: 'must be 1–100 letters, digits, - or _' })),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Optional: {"source_id": "..."} sets your mapping for the listing' },
);

const offerProperties = {
  message: text(1, 500),
  url: HttpUrlSchema,
};
export const OfferInputSchema = Type.Object(offerProperties, { additionalProperties: false });
export const OfferSchema = Type.Object(offerProperties, { $id: 'Offer', title: 'Offer' });
export type Offer = Static<typeof OfferSchema>;

export const MappingsQuerySchema = Type.Object(
  {
    source_id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_*-]{1,100}$', errorMessage: 'must be 1–100 letters, digits, -, _ or * (wildcard)' })),
  },
  { additionalProperties: false },
);

const MappingSchema = Type.Object({ source_id: Type.String(), service_id: Type.String() });
export type Mapping = Static<typeof MappingSchema>;
export const MappingsResponseSchema = Type.Object({
  numFound: Type.Integer(),
  numReturned: Type.Integer(),
  mappings: Type.Array(MappingSchema),
  results: Type.Array(MappingSchema, { description: 'The same array as mappings, under the name the samples use' }),
});
export type MappingsPage = Static<typeof MappingsResponseSchema>;
