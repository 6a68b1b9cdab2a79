import { Type } from '@sinclair/typebox';
import { idParam, ListingParamsSchema, SOURCE_ID_PATTERN, text } from './common.js';

export const ISO_DATE_TIME_WITH_OFFSET = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$';

export const ReviewInputSchema = Type.Object(
  {
    source_id: Type.String({ pattern: SOURCE_ID_PATTERN, errorMessage: 'must be 1–100 letters, digits, - or _' }),
    reviewer: text(1, 200),
    reviewed: text(0, 200),
    title: text(0, 200),
    text: text(1, 10_000),
    rating: Type.Integer({ minimum: 1, maximum: 5, errorMessage: 'must be an integer from 1 to 5' }),
    date_time: Type.String({ pattern: ISO_DATE_TIME_WITH_OFFSET, errorMessage: 'must be an ISO 8601 date-time with a UTC offset, e.g. 2026-11-22T08:00:00+01:00' }),
    id: Type.Optional(Type.Unknown({ description: 'read-only, ignored' })),
  },
  { additionalProperties: false },
);

export const ReviewSchema = Type.Object(
  {
    id: Type.String(),
    source_id: Type.String(),
    reviewer: Type.String(),
    reviewed: Type.String(),
    title: Type.String(),
    text: Type.String(),
    rating: Type.Integer(),
    date_time: Type.String(),
  },
  { $id: 'Review', title: 'Review' },
);

export const ReviewParamsSchema = Type.Object({
  ...ListingParamsSchema.properties,
  reviewId: idParam('review'),
});
