import { Type, type Static } from '@sinclair/typebox';
import { idParam, ListingParamsSchema, text } from './common.js';
import { ImageSchema } from './listing.js';

export const IMAGE_TYPES = ['logo', 'printad', 'photo'] as const;
const imageType = Type.Union(
  IMAGE_TYPES.map((v) => Type.Literal(v)),
  { errorMessage: `must be one of ${IMAGE_TYPES.join(', ')}` },
);
const caption = text(0, 500);
const base64 = Type.String({ minLength: 1, description: 'Image bytes in base64 (a data: URL prefix is accepted); JPEG, PNG, GIF or WebP; at most 5 MiB decoded' });
// Read-only fields, accepted and ignored so that a client can send back what it got.
const readOnly = { id: Type.Optional(Type.Unknown()), url: Type.Optional(Type.Unknown()) };

export const ImageCreateSchema = Type.Object({ type: imageType, caption, base64, ...readOnly }, { additionalProperties: false });
/** What an image is made of; an update gives any of it (a null `base64` in the body keeps the bytes). */
export type ImageInput = Pick<Static<typeof ImageCreateSchema>, 'type' | 'caption' | 'base64'>;
export const ImageUpdateSchema = Type.Object(
  {
    type: Type.Optional(imageType),
    caption: Type.Optional(caption),
    base64: Type.Optional(Type.Union([base64, Type.Null()], { description: 'New bytes; null or absent keeps the image' })),
    ...readOnly,
  },
  { additionalProperties: false },
);

export const ImageParamsSchema = Type.Object({
  ...ListingParamsSchema.properties,
  imageId: idParam('image'),
});

export const ImagesResponseSchema = Type.Object({ numFound: Type.Integer(), images: Type.Array(Type.Ref(ImageSchema)) });
export type ImagesPage = Static<typeof ImagesResponseSchema>;
