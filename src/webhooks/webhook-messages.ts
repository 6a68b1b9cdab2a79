// What a subscription receives (docs/contract.md §15): which changes match it, and the exact body
// of each message. Pure, so the fan-out rules are tested without a database.
import { randomUUID } from 'node:crypto';
import type { ChangeRow } from '../changes/changes-dal.js';
import type { ActiveWebhook } from './webhooks-dal.js';

export type Subscription = Pick<ActiveWebhook, 'id' | 'partnerId' | 'partnerRole' | 'events' | 'countries' | 'scope' | 'createdAt'>;
export type MatchedChange = Pick<ChangeRow, 'country' | 'kind' | 'claimedBy' | 'visibleTo' | 'at'>;

export const ALL_EVENTS = '*';

/**
 * Whether `subscription` receives `change`: its country and kind are subscribed; with scope
 * `claimed` the subscriber claims the listing (for `unclaimed`: claimed it until then); a change
 * only one partner may see (its own private review) goes to that partner and admins; and the change
 * happened after the subscription was created, so a new subscription does not replay history.
 */
export function receivesChange(subscription: Subscription, change: MatchedChange): boolean {
  if (!subscription.countries.includes(change.country)) return false;
  if (!subscription.events.includes(ALL_EVENTS) && !subscription.events.includes(change.kind)) return false;
  if (subscription.scope === 'claimed' && change.claimedBy !== subscription.partnerId) return false;
  if (change.visibleTo !== null && change.visibleTo !== subscription.partnerId && subscription.partnerRole !== 'admin') return false;
  return change.at >= subscription.createdAt;
}

/** A message id: the body's `id` and the `webhook-id` header, the same on every retry. */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

export interface WebhookMessage {
  id: string;
  type: string;
  country: string | null;
  listing_id: string | null;
  version: number | null;
  at: string;
  /** The Listing fields the change touched (docs/contract.md §21); none for a ping. */
  fields: string[];
}

/** The body announcing `change`; listing ids are strings, as everywhere in the API. */
export function changeMessage(id: string, change: Pick<ChangeRow, 'kind' | 'country' | 'listingId' | 'version' | 'at' | 'fields'>): WebhookMessage {
  return {
    id,
    type: change.kind,
    country: change.country,
    listing_id: String(change.listingId),
    version: change.version,
    at: change.at.toISOString(),
    fields: change.fields,
  };
}

/** The body of a test message (POST /webhooks/:id/test): no listing. */
export function pingMessage(id: string, at: Date): WebhookMessage {
  return { id, type: 'ping', country: null, listing_id: null, version: null, at: at.toISOString(), fields: [] };
}
