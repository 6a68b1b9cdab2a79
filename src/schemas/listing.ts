// The public contract of the Listing resource (docs/listings-api.md, docs/contract.md §4).
import { Type, type Static } from '@sinclair/typebox';
import { DAYS } from '../listings/hours.js';
import { MAX_SPECIAL_DAYS } from '../listings/special-hours.js';
import { HttpUrlSchema, SOURCE_ID_PATTERN, SubObjectIdSchema, text } from './common.js';

export const PHONE_TYPES = ['landline', 'mobile', 'fax', 'tollfree'] as const;
export const LINK_TYPES = ['website', 'googleplus', 'facebook', 'instagram', 'twitter', 'youtube', 'linkedin', 'other'] as const;
export const GENDERS = ['U', 'M', 'F', 'D'] as const;
export const E164_PATTERN = '^\\+[1-9][0-9]{1,14}$';

const oneOf = (values: readonly string[]) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { errorMessage: `must be one of ${values.join(', ')}` },
  );
/** Sub-object ids may be sent back on PUT (keeps the id) and are ignored on POST. */
const subId = Type.Optional(SubObjectIdSchema);

const IntervalSchema = Type.Object(
  {
    start: Type.String({ description: 'HH:MM or HH:MM:SS' }),
    end: Type.String({ description: 'HH:MM or HH:MM:SS; 24:00 allowed' }),
  },
  { additionalProperties: false },
);
const IntervalOutSchema = Type.Object({ start: Type.String(), end: Type.String() });

// Opening hours beyond the week (docs/contract.md §18); dates and zones are checked by
// special-hours.ts, which reports every failed check with its path.
const SpecialDayInputSchema = Type.Object(
  {
    date: Type.String({ description: "YYYY-MM-DD, local to the listing's time zone; unique" }),
    closed: Type.Boolean({ description: 'true: closed all day (no intervals); false: open only in `intervals`' }),
    intervals: Type.Optional(Type.Array(IntervalSchema, { maxItems: 24, description: 'Replace the weekly hours of this date; same rules as `hours`' })),
  },
  { additionalProperties: false },
);
const ClosureSchema = Type.Object(
  {
    until: Type.Union([Type.String({ description: 'Last closed date, inclusive, YYYY-MM-DD' }), Type.Null()], { description: 'null: closed until further notice' }),
  },
  { additionalProperties: false },
);
const TimeZoneSchema = Type.String({ maxLength: 100, description: "IANA time zone name; default: the country's (de: Europe/Berlin)" });

const ContactSchema = Type.Object(
  {
    name: text(1, 200),
    surname: text(1, 200),
    title: text(0, 100),
    gender: oneOf(GENDERS),
  },
  { additionalProperties: false },
);

export const ListingInputSchema = Type.Object(
  {
    name: text(1, 200),
    address: text(1, 200),
    zip: text(1, 20),
    place: text(1, 100),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', errorMessage: 'must be a two-letter country code' })),
    latitude: Type.Optional(Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()], { errorMessage: 'must be null or a number between -90 and 90' })),
    longitude: Type.Optional(Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()], { errorMessage: 'must be null or a number between -180 and 180' })),
    keywords: Type.Optional(Type.Array(text(1, 100), { maxItems: 50 })),
    description: Type.Optional(Type.Union([text(0, 5000), Type.Null()], { errorMessage: 'must be null or at most 5000 characters' })),
    emails: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: subId,
            address: Type.String({ format: 'email', maxLength: 254, errorMessage: 'must be an e-mail address' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    phones: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: subId,
            type: oneOf(PHONE_TYPES),
            number: Type.String({ pattern: E164_PATTERN, errorMessage: 'must be E.164' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    links: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: subId,
            type: oneOf(LINK_TYPES),
            url: HttpUrlSchema,
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    contact: Type.Optional(Type.Union([ContactSchema, Type.Null()])),
    hours: Type.Optional(Type.Object(Object.fromEntries(DAYS.map((d) => [d, Type.Optional(Type.Array(IntervalSchema, { maxItems: 24 }))])), { additionalProperties: false })),
    special_hours: Type.Optional(Type.Array(SpecialDayInputSchema, { maxItems: MAX_SPECIAL_DAYS, errorMessage: `must hold at most ${MAX_SPECIAL_DAYS} days` })),
    temporarily_closed: Type.Optional(Type.Union([ClosureSchema, Type.Null()])),
    time_zone: Type.Optional(TimeZoneSchema),
    categories: Type.Array(
      Type.Object(
        {
          id: text(1, 100, { errorMessage: false }),
          name: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10, errorMessage: 'must hold 1–10 categories' },
    ),
    active: Type.Optional(Type.Boolean()),
    source_id: Type.Optional(Type.String({ pattern: SOURCE_ID_PATTERN, errorMessage: 'must be 1–100 letters, digits, - or _' })),
    // Read-only fields: accepted and ignored, so that a client can PUT back what it read.
    id: Type.Optional(Type.Unknown()),
    url: Type.Optional(Type.Unknown()),
    images: Type.Optional(Type.Unknown()),
    claimed: Type.Optional(Type.Unknown()),
    suppressed: Type.Optional(Type.Unknown()),
    version: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, title: 'ListingInput' },
);

export type ListingInput = Static<typeof ListingInputSchema>;

export const ImageSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    url: Type.String(),
    base64: Type.Null(),
    caption: Type.String(),
  },
  { $id: 'Image', title: 'Image' },
);
export type Image = Static<typeof ImageSchema>;

const listingProperties = {
  id: Type.String(),
  name: Type.String(),
  address: Type.String(),
  zip: Type.String(),
  place: Type.String(),
  country_code: Type.String(),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  keywords: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  emails: Type.Array(Type.Object({ id: Type.String(), address: Type.String() })),
  phones: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), number: Type.String() })),
  url: Type.String(),
  hours: Type.Object(Object.fromEntries(DAYS.map((d) => [d, Type.Array(IntervalOutSchema)]))),
  special_hours: Type.Array(Type.Object({ date: Type.String(), closed: Type.Boolean(), intervals: Type.Array(IntervalOutSchema) })),
  temporarily_closed: Type.Union([Type.Object({ until: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  time_zone: Type.String(),
  images: Type.Optional(Type.Array(Type.Ref(ImageSchema))),
  links: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), url: Type.String() })),
  categories: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  active: Type.Boolean(),
  claimed: Type.Boolean(),
  suppressed: Type.Boolean(),
  version: Type.Integer({ description: 'Grows with every change of the listing; its ETag is "<version>" (docs/contract.md §20)' }),
};

export const ListingSchema = Type.Object(
  {
    ...listingProperties,
    contact: Type.Union([Type.Object({ name: Type.String(), surname: Type.String(), title: Type.String(), gender: Type.String() }), Type.Null()]),
  },
  { $id: 'Listing', title: 'Listing' },
);
export type Listing = Static<typeof ListingSchema>;

/** A Listing as the filtered search returns it: without contact (docs/listings-api.md). */
export const ListingSummarySchema = Type.Object(listingProperties, { $id: 'ListingSummary', title: 'ListingSummary' });
export type ListingSummary = Static<typeof ListingSummarySchema>;

/**
 * The body of PATCH: a JSON Merge Patch (RFC 7396) of the Listing (docs/contract.md §20). Its
 * members are the Listing's; what each may hold is checked on the merged listing, as the body of
 * a PUT (src/listings/listing-put-body.ts), so that both report the same failures.
 */
export const ListingPatchSchema = Type.Object(Object.fromEntries(Object.keys(ListingInputSchema.properties).map((field) => [field, Type.Optional(Type.Unknown())])), {
  additionalProperties: false,
  title: 'ListingPatch',
  description:
    'Members present replace the stored value; null clears a nullable field (description, contact, temporarily_closed; ' +
    'latitude and longitude together) and is refused on a required one; lists and objects are replaced whole, but for hours, ' +
    'which is merged by day: {"hours": {"monday": []}} changes Monday only. The merged listing must be a valid PUT body.',
});
