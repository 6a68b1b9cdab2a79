// The Listing resource: create, read (or read as it was, ?version=n), replace, patch, delete, its
// history and restore. Every answer that carries one stored listing has its ETag, the version
// (docs/contract.md §20); a dry run's answer has none, as nothing was stored.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { WriteOptions } from '../listings/change-listing.js';
import type { HistoryService } from '../listings/history-service.js';
import type { Listing, ListingPreview } from '../listings/listing-view.js';
import type { ListingsService } from '../listings/listings-service.js';
import { DryRunQuerySchema, errorResponses, IfMatchHeadersSchema, IfNoneMatchHeadersSchema, ListingParamsSchema, NoContent, NotModified, preconditionResponses } from '../schemas/common.js';
import { HistoryPageSchema, HistoryQuerySchema, RestoreBodySchema, VersionQuerySchema } from '../schemas/history.js';
import { ListingInputSchema, ListingPatchSchema, ListingSchema } from '../schemas/listing.js';
import { ifMatchOf, listingEtag, matchesEtag } from '../http/entity-tags.js';
import { existingId } from '../http/ids.js';

/** The media type of PATCH bodies (RFC 7396); `application/json` is accepted as the same. */
const MERGE_PATCH = 'application/merge-patch+json';

/**
 * Sends a written listing with its ETag; a dry run's preview goes without one, and is serialised
 * as it is: its null ids are no Listing the response schema would accept.
 */
function sendWritten(reply: FastifyReply, status: number, listing: Listing | ListingPreview, dryRun: boolean | undefined) {
  if (dryRun) return reply.status(status).serializer(JSON.stringify).send(listing);
  return reply.status(status).header('etag', listingEtag(listing.version)).send(listing);
}

/** What a write's request says about how to write: If-Match, and dry_run where it may ask for one. */
const writeOptions = (headers: { 'if-match'?: string | undefined }, dryRun?: boolean): WriteOptions => ({ ...ifMatchOf(headers), dryRun });

export const listingRoutes: FastifyPluginAsyncTypebox<{ listings: ListingsService; history: HistoryService }> = async (app, { listings, history }) => {
  app.addContentTypeParser(MERGE_PATCH, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.post(
    '/listings',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create a listing (claimed by the caller); honours Idempotency-Key (not on a dry run)',
        tags: ['listings'],
        querystring: DryRunQuerySchema,
        body: ListingInputSchema,
        response: { 201: Type.Ref(ListingSchema), ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { dry_run: dryRun } = request.query;
      const listing = await listings.create(request.caller, request.country, request.body, { dryRun });
      return sendWritten(reply, 201, listing, dryRun);
    },
  );

  app.get(
    '/listings/:id',
    {
      schema: {
        summary: 'Read a listing, or (?version=n) the listing as it was at a version; 304 while If-None-Match names its ETag',
        tags: ['listings'],
        params: ListingParamsSchema,
        querystring: VersionQuerySchema,
        headers: IfNoneMatchHeadersSchema,
        response: { 200: Type.Ref(ListingSchema), 304: NotModified, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const id = existingId(request.params.id, 'listing');
      const { version } = request.query;
      const listing = version === undefined ? await listings.get(request.country, id) : await history.listingAt(request.caller, request.country, id, version);
      const etag = listingEtag(listing.version);
      reply.header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return listing;
    },
  );

  app.put(
    '/listings/:id',
    {
      schema: {
        summary: 'Replace a listing; a body equal to the stored listing changes nothing (same version, nothing emitted)',
        tags: ['listings'],
        params: ListingParamsSchema,
        querystring: DryRunQuerySchema,
        headers: IfMatchHeadersSchema,
        body: ListingInputSchema,
        response: { 200: Type.Ref(ListingSchema), ...errorResponses(403, 409, 413, 415), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      const { listing } = await listings.update(request.caller, request.country, existingId(request.params.id, 'listing'), request.body, writeOptions(request.headers, request.query.dry_run));
      return sendWritten(reply, 200, listing, request.query.dry_run);
    },
  );

  app.patch(
    '/listings/:id',
    {
      schema: {
        summary: `Change some fields of a listing: a JSON Merge Patch (${MERGE_PATCH}, or application/json), checked as the PUT of the merged listing`,
        tags: ['listings'],
        params: ListingParamsSchema,
        querystring: DryRunQuerySchema,
        headers: IfMatchHeadersSchema,
        consumes: [MERGE_PATCH, 'application/json'],
        body: ListingPatchSchema,
        response: { 200: Type.Ref(ListingSchema), ...errorResponses(403, 409, 413, 415), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      const { listing } = await listings.patch(request.caller, request.country, existingId(request.params.id, 'listing'), request.body, writeOptions(request.headers, request.query.dry_run));
      return sendWritten(reply, 200, listing, request.query.dry_run);
    },
  );

  app.delete(
    '/listings/:id',
    {
      schema: {
        summary: 'Delete a listing',
        tags: ['listings'],
        params: ListingParamsSchema,
        headers: IfMatchHeadersSchema,
        response: { 204: NoContent, ...errorResponses(403), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      await listings.remove(request.caller, request.country, existingId(request.params.id, 'listing'), writeOptions(request.headers));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/listings/:id/history',
    {
      schema: {
        summary: 'Versions of a listing, newest first: what each changed (field, from, to), when and by whom',
        tags: ['listings'],
        params: ListingParamsSchema,
        querystring: HistoryQuerySchema,
        response: { 200: HistoryPageSchema, ...errorResponses() },
      },
    },
    async (request) =>
      history.page(request.caller, request.country, existingId(request.params.id, 'listing'), {
        before: request.query.before,
        limit: request.query.limit ?? 20,
      }),
  );

  app.post(
    '/listings/:id/restore',
    {
      schema: {
        summary: 'Write the content of an earlier version as the next version (as a PUT of it would)',
        tags: ['listings'],
        params: ListingParamsSchema,
        headers: IfMatchHeadersSchema,
        body: RestoreBodySchema,
        response: { 200: Type.Ref(ListingSchema), ...errorResponses(403, 409, 415), ...preconditionResponses },
      },
    },
    async (request, reply) => {
      const { listing } = await listings.restore(request.caller, request.country, existingId(request.params.id, 'listing'), request.body.version, writeOptions(request.headers));
      return sendWritten(reply, 200, listing, false);
    },
  );
};
