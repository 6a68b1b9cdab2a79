import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { existingId } from '../http/ids.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import { AcceptedSchema, CreatedWebhookSchema, DeliveryListSchema, RotatedSecretSchema, WebhookInputSchema, WebhookListSchema, WebhookParamsSchema, WebhookSchema } from '../schemas/webhooks.js';
import type { WebhooksService } from '../webhooks/webhooks-service.js';

export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Subscribe to changes; the answer shows the signing secret, once',
        tags: ['webhooks'],
        body: WebhookInputSchema,
        response: { 201: CreatedWebhookSchema, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(request.caller, request.body)),
  );

  app.get(
    '/webhooks',
    {
      schema: { summary: 'Your webhook subscriptions (without secrets)', tags: ['webhooks'], response: { 200: WebhookListSchema, ...errorResponses() } },
    },
    async (request) => webhooks.list(request.caller),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: { summary: 'One of your webhook subscriptions', tags: ['webhooks'], params: WebhookParamsSchema, response: { 200: Type.Ref(WebhookSchema), ...errorResponses() } },
    },
    async (request) => webhooks.get(request.caller, existingId(request.params.id, 'webhook')),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        summary: "Replace a subscription's settings; re-enables a disabled one",
        tags: ['webhooks'],
        params: WebhookParamsSchema,
        body: WebhookInputSchema,
        response: { 200: Type.Ref(WebhookSchema), ...errorResponses(413, 415) },
      },
    },
    async (request) => webhooks.replace(request.caller, existingId(request.params.id, 'webhook'), request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: { summary: 'Delete a subscription and its deliveries', tags: ['webhooks'], params: WebhookParamsSchema, response: { 204: NoContent, ...errorResponses() } },
    },
    async (request, reply) => {
      await webhooks.remove(request.caller, existingId(request.params.id, 'webhook'));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: { summary: "Send a ping message to the subscription's URL", tags: ['webhooks'], params: WebhookParamsSchema, response: { 202: AcceptedSchema, ...errorResponses() } },
    },
    async (request, reply) => reply.status(202).send(await webhooks.ping(request.caller, existingId(request.params.id, 'webhook'))),
  );

  app.post(
    '/webhooks/:id/rotate',
    {
      schema: {
        summary: 'Issue a new signing secret, shown once; the old one keeps signing beside it for 24 h',
        tags: ['webhooks'],
        params: WebhookParamsSchema,
        response: { 200: RotatedSecretSchema, ...errorResponses() },
      },
    },
    async (request) => webhooks.rotateSecret(request.caller, existingId(request.params.id, 'webhook')),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: { summary: "The subscription's newest deliveries, newest first", tags: ['webhooks'], params: WebhookParamsSchema, response: { 200: DeliveryListSchema, ...errorResponses() } },
    },
    async (request) => webhooks.deliveries(request.caller, existingId(request.params.id, 'webhook')),
  );
};
