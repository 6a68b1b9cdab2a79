// The HTTP contract of webhook subscriptions (docs/contract.md §15).
import { Type, type Static } from '@sinclair/typebox';
import { CHANGE_KINDS } from '../changes/change-kinds.js';
import { HttpUrlSchema, idParam } from './common.js';

export const WEBHOOK_SCOPES = ['claimed', 'all'] as const;

/** How many deliveries GET /webhooks/:id/deliveries answers: the newest ones. */
export const DELIVERIES_LISTED = 100;

// `type: 'string'` beside the union is not redundant: with it, Ajv checks `uniqueItems` by comparing
// strings and skips items of another type. Without it Ajv compares every pair of items with
// fast-deep-equal, which throws (a 500) on two objects whose own `valueOf` is not a function.
const EventSchema = Type.Union(
  [...CHANGE_KINDS, '*'].map((kind) => Type.Literal(kind)),
  {
    type: 'string',
    errorMessage: `must be one of ${CHANGE_KINDS.join(', ')} or *`,
  },
);

export const WebhookInputSchema = Type.Object(
  {
    url: HttpUrlSchema,
    events: Type.Array(EventSchema, { minItems: 1, maxItems: CHANGE_KINDS.length + 1, uniqueItems: true, description: 'Change kinds (docs/contract.md §14), or ["*"] for all' }),
    countries: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$', errorMessage: 'must be a two-letter country code' }), {
        minItems: 1,
        maxItems: 50,
        description: 'Enabled countries to receive changes of; default: every enabled country',
      }),
    ),
    scope: Type.Optional(
      Type.Union(
        WEBHOOK_SCOPES.map((s) => Type.Literal(s)),
        {
          default: 'claimed',
          errorMessage: 'must be claimed or all',
          description: 'claimed (default): changes of listings you claim; all: every change of the countries',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type WebhookInput = Static<typeof WebhookInputSchema>;

const webhookProperties = {
  id: Type.String({ description: 'Decimal id' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
  scope: Type.Union(WEBHOOK_SCOPES.map((s) => Type.Literal(s))),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')], { description: 'disabled after a delivery failed for its whole retry schedule; PUT re-enables' }),
  created_at: Type.String({ format: 'date-time' }),
};
export const WebhookSchema = Type.Object(webhookProperties, { $id: 'Webhook', title: 'Webhook' });
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object({
  ...webhookProperties,
  secret: Type.String({ description: 'Signing secret (whsec_…), shown only in this answer' }),
});
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const RotatedSecretSchema = Type.Object({
  secret: Type.String({ description: 'The new signing secret (whsec_…), shown only in this answer' }),
  previous_secret_expires_at: Type.String({ format: 'date-time', description: 'Until then messages carry a second signature, by the secret this one replaces' }),
});
export type RotatedSecret = Static<typeof RotatedSecretSchema>;

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(Type.Ref(WebhookSchema)) });

export const WebhookParamsSchema = Type.Object({ id: idParam('webhook', { description: 'Webhook id' }) });

const DeliverySchema = Type.Object({
  id: Type.String({ description: 'Message id: the webhook-id header and the body id' }),
  type: Type.String({ description: 'Change kind, or ping' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'Status of the last attempt; null before the first or when no answer came' }),
  at: Type.String({ format: 'date-time', description: 'When the change happened' }),
  listing_id: Type.Union([Type.String(), Type.Null()]),
  version: Type.Union([Type.Integer(), Type.Null()]),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a pending delivery is tried next' }),
});
export type Delivery = Static<typeof DeliverySchema>;
export const DeliveryListSchema = Type.Object({ deliveries: Type.Array(DeliverySchema, { description: `The ${DELIVERIES_LISTED} newest, newest first` }) });

export const AcceptedSchema = Type.Object({ id: Type.String({ description: 'Message id of the queued ping' }) });
