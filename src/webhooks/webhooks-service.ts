// The rules of webhook subscriptions (docs/contract.md §15): at most 10 per partner, targets that
// pass the guard, countries that are enabled; each partner sees only its own.
import type { Db } from '../db/client.js';
import { conflict, notFound, rateLimited, validationError } from '../platform/errors.js';
import type { Caller } from '../partners/partners-service.js';
import { DELIVERIES_LISTED, type CreatedWebhook, type Delivery, type RotatedSecret, type Webhook, type WebhookInput } from '../schemas/webhooks.js';
import type { SecretBox } from './secret-box.js';
import { checkTarget, TargetRefusedError, type ResolveHost, type TargetPolicy } from './target-guard.js';
import { newMessageId, pingMessage } from './webhook-messages.js';
import { generateWebhookSecret } from './webhook-signature.js';
import {
  countWebhooks,
  deleteWebhook,
  findWebhook,
  insertDeliveries,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  lockOwnedWebhook,
  lockPartnerForWebhooks,
  pruneDeliveries,
  recentPings,
  replaceWebhook,
  rotateWebhookSecret,
  type DeliveryRow,
  type WebhookRow,
  type WebhookSettings,
} from './webhooks-dal.js';

export const WEBHOOKS_PER_PARTNER = 10;

export interface WebhooksServiceDeps {
  db: Db;
  countries: readonly string[];
  policy: TargetPolicy;
  /** Replaces DNS in tests of the guard. */
  resolve?: ResolveHost;
  /** Seals secrets before they are stored. */
  secrets: Pick<SecretBox, 'seal'>;
  /** WEBHOOK_PINGS_PER_MINUTE and WEBHOOK_DELIVERIES_KEPT. */
  limits: { pingsPerMinute: number; deliveriesKept: number };
}

const PING_WINDOW_MS = 60_000;

/** How long a rotated-out secret keeps signing (docs/partners/sync-and-webhooks.md). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

const view = (row: WebhookRow): Webhook => ({
  id: String(row.id),
  url: row.url,
  events: row.events,
  countries: row.countries,
  scope: row.scope,
  status: row.status,
  created_at: row.createdAt.toISOString(),
});

const deliveryView = (row: DeliveryRow): Delivery => ({
  id: row.publicId,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.lastStatusCode,
  at: row.at.toISOString(),
  listing_id: row.listingId === null ? null : String(row.listingId),
  version: row.version,
  next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
});

export function createWebhooksService({ db, countries, policy, resolve, secrets, limits }: WebhooksServiceDeps) {
  /** The stored settings of `input`, or a 400 naming every problem. */
  async function settingsOf(input: WebhookInput): Promise<WebhookSettings> {
    const details: string[] = [];
    const chosen = input.countries ? [...new Set(input.countries.map((c) => c.toLowerCase()))] : [...countries];
    for (const country of chosen) if (!countries.includes(country)) details.push(`countries: "${country}" is not an enabled country`);
    if (input.events.includes('*') && input.events.length > 1) details.push('events: "*" stands alone');
    try {
      await checkTarget(input.url, policy, resolve);
    } catch (err) {
      if (!(err instanceof TargetRefusedError)) throw err;
      details.push(`url: ${err.publicMessage}`);
    }
    if (details.length) throw validationError(details);
    return { url: input.url, events: input.events, countries: chosen, scope: input.scope ?? 'claimed' };
  }

  async function owned(caller: Caller, id: number): Promise<WebhookRow> {
    const row = await findWebhook(db, caller.partnerId, id);
    if (!row) throw notFound(`webhook ${id}`);
    return row;
  }

  return {
    async create(caller: Caller, input: WebhookInput): Promise<CreatedWebhook> {
      const settings = await settingsOf(input);
      const secret = generateWebhookSecret();
      const row = await db.transaction(async (tx) => {
        await lockPartnerForWebhooks(tx, caller.partnerId);
        if ((await countWebhooks(tx, caller.partnerId)) >= WEBHOOKS_PER_PARTNER) {
          throw conflict(`at most ${WEBHOOKS_PER_PARTNER} webhooks per partner`, [`webhooks: ${WEBHOOKS_PER_PARTNER}`]);
        }
        return insertWebhook(tx, { partnerId: caller.partnerId, secret: secrets.seal(secret), ...settings });
      });
      return { ...view(row), secret };
    },

    /** A new secret, shown once; the one it replaces keeps signing for PREVIOUS_SECRET_GRACE_MS. */
    async rotateSecret(caller: Caller, id: number): Promise<RotatedSecret> {
      const secret = generateWebhookSecret();
      const row = await rotateWebhookSecret(db, caller.partnerId, id, secrets.seal(secret), PREVIOUS_SECRET_GRACE_MS);
      if (!row) throw notFound(`webhook ${id}`);
      return { secret, previous_secret_expires_at: row.previousSecretUntil!.toISOString() };
    },

    list: async (caller: Caller) => ({ webhooks: (await listWebhooks(db, caller.partnerId)).map(view) }),

    get: async (caller: Caller, id: number) => view(await owned(caller, id)),

    async replace(caller: Caller, id: number, input: WebhookInput): Promise<Webhook> {
      await owned(caller, id); // a missing id is 404 before the body's problems are reported
      const row = await replaceWebhook(db, caller.partnerId, id, await settingsOf(input));
      if (!row) throw notFound(`webhook ${id}`);
      return view(row);
    },

    async remove(caller: Caller, id: number): Promise<void> {
      if (!(await deleteWebhook(db, caller.partnerId, id))) throw notFound(`webhook ${id}`);
    },

    /**
     * Queues a `ping`; the indexer's sweeper sends it (docs/partners/sync-and-webhooks.md). At most
     * `pingsPerMinute` a subscription, counted under its row lock so that a burst cannot overshoot,
     * and each ping prunes the subscription's old deliveries: pings neither make the indexer a
     * request reflector nor grow the delivery table without bound.
     */
    async ping(caller: Caller, id: number): Promise<{ id: string }> {
      return db.transaction(async (tx) => {
        const webhook = await lockOwnedWebhook(tx, caller.partnerId, id);
        if (!webhook) throw notFound(`webhook ${id}`);
        const recent = await recentPings(tx, webhook.id, PING_WINDOW_MS);
        if (recent.count >= limits.pingsPerMinute) {
          throw rateLimited(`at most ${limits.pingsPerMinute} test pings a minute per webhook`, (PING_WINDOW_MS - recent.oldestAgeMs) / 1000);
        }
        const publicId = newMessageId();
        const message = pingMessage(publicId, new Date());
        await insertDeliveries(tx, [
          {
            publicId,
            webhookId: webhook.id,
            changeId: null,
            type: message.type,
            country: null,
            listingId: null,
            version: null,
            at: new Date(message.at),
            payload: JSON.stringify(message),
          },
        ]);
        await pruneDeliveries(tx, webhook.id, limits.deliveriesKept);
        return { id: publicId };
      });
    },

    async deliveries(caller: Caller, id: number): Promise<{ deliveries: Delivery[] }> {
      const webhook = await owned(caller, id);
      return { deliveries: (await listDeliveries(db, webhook.id, DELIVERIES_LISTED)).map(deliveryView) };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
