import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { ImagesService } from '../media/images-service.js';
import { PUBLIC_ROUTE } from '../plugins/openapi.js';
import { errorResponses, IfMatchHeadersSchema, ListingParamsSchema, NoContent, preconditionResponses } from '../schemas/common.js';
import { ImageSchema } from '../schemas/listing.js';
import { ImageCreateSchema, ImageParamsSchema, ImagesResponseSchema, ImageUpdateSchema } from '../schemas/media.js';
import { ifMatchOf } from '../http/entity-tags.js';
import { existingId } from '../http/ids.js';

export const imageRoutes: FastifyPluginAsyncTypebox<{ images: ImagesService }> = async (app, { images }) => {
  // The endpoint index spells the path /image, the detailed description /images: both work alike.
  for (const collection of ['images', 'image']) {
    app.post(
      `/listings/:id/${collection}`,
      {
        config: { idempotent: true },
        schema: {
          summary: 'Upload an image (JPEG, PNG, GIF or WebP in base64); honours Idempotency-Key',
          tags: ['images'],
          params: ListingParamsSchema,
          headers: IfMatchHeadersSchema,
          body: ImageCreateSchema,
          response: { 201: Type.Ref(ImageSchema), ...errorResponses(403, 409, 413, 415), ...preconditionResponses },
        },
      },
      async (request, reply) => {
        const { type, caption, base64 } = request.body;
        const image = await images.create(request.caller, request.country, existingId(request.params.id, 'listing'), { type, caption, base64 }, ifMatchOf(request.headers));
        return reply.status(201).send(image);
      },
    );

    app.put(
      `/listings/:id/${collection}/:imageId`,
      {
        schema: {
          summary: 'Update an image: type, caption and/or new bytes',
          tags: ['images'],
          params: ImageParamsSchema,
          headers: IfMatchHeadersSchema,
          body: ImageUpdateSchema,
          response: { 200: Type.Ref(ImageSchema), ...errorResponses(403, 413, 415), ...preconditionResponses },
        },
      },
      async (request) => {
        const { type, caption, base64 } = request.body;
        return images.update(
          request.caller,
          request.country,
          existingId(request.params.id, 'listing'),
          existingId(request.params.imageId, 'image'),
          {
            ...(type !== undefined ? { type } : {}),
            ...(caption !== undefined ? { caption } : {}),
            ...(typeof base64 === 'string' ? { base64 } : {}),
          },
          ifMatchOf(request.headers),
        );
      },
    );

    app.delete(
      `/listings/:id/${collection}/:imageId`,
      {
        schema: {
          summary: 'Delete an image; its file stops being served',
          tags: ['images'],
          params: ImageParamsSchema,
          headers: IfMatchHeadersSchema,
          response: { 204: NoContent, ...errorResponses(403), ...preconditionResponses },
        },
      },
      async (request, reply) => {
        await images.remove(request.caller, request.country, existingId(request.params.id, 'listing'), existingId(request.params.imageId, 'image'), ifMatchOf(request.headers));
        return reply.status(204).send(null);
      },
    );
  }

  app.get(
    '/listings/:id/images',
    {
      schema: {
        summary: 'Images of a listing',
        tags: ['images'],
        params: ListingParamsSchema,
        response: { 200: ImagesResponseSchema, ...errorResponses() },
      },
    },
    async (request) => images.list(request.country, existingId(request.params.id, 'listing')),
  );
};

/**
 * Public image files, no key. A file's bytes never change, but it stops being served when its
 * last image or listing is deleted: caches keep it at most `cacheMaxAgeSeconds` after that.
 */
export const mediaRoutes: FastifyPluginAsyncTypebox<{ images: ImagesService; cacheMaxAgeSeconds: number }> = async (app, { images, cacheMaxAgeSeconds }) => {
  const cacheControl = `public, max-age=${cacheMaxAgeSeconds}`;
  app.get(
    '/media/:file',
    {
      schema: {
        ...PUBLIC_ROUTE,
        summary: 'An image file (public)',
        tags: ['images'],
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }), 404: Type.Ref('Error') },
      },
    },
    async (request, reply) => {
      const file = await images.file(request.params.file);
      if (!file) return reply.status(404).send({ type: 'not_found', message: 'no such media file', details: [] });
      if (file.size !== undefined) reply.header('content-length', file.size);
      return reply.type(file.contentType).header('cache-control', cacheControl).send(file.body);
    },
  );
};
