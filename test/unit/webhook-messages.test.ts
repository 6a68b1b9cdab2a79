import t from 'tap';
import { changeMessage, receivesChange, type MatchedChange, type Subscription } from '../../src/webhooks/webhook-messages.js';

const created = new Date('2026-01-01T00:00:00Z');
const later = new Date('2026-01-01T00:00:05Z');
const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: 1,
  partnerId: 7,
  partnerRole: 'partner',
  events: ['*'],
  countries: ['de'],
  scope: 'claimed',
  createdAt: created,
  ...overrides,
});
const change = (overrides: Partial<MatchedChange> = {}): MatchedChange => ({ country: 'de', kind: 'updated', claimedBy: 7, visibleTo: null, at: later, ...overrides });

t.test("scope claimed receives changes of the subscriber's listings only, its own unclaim included", async (t) => {
  t.ok(receivesChange(subscription(), change()));
  t.ok(receivesChange(subscription(), change({ kind: 'unclaimed', claimedBy: 7 })), 'claimed_by of an unclaim is the claimant before it');
  t.notOk(receivesChange(subscription(), change({ claimedBy: 8 })));
  t.notOk(receivesChange(subscription(), change({ claimedBy: null })));
});

t.test('scope all receives every change of its countries', async (t) => {
  t.ok(receivesChange(subscription({ scope: 'all' }), change({ claimedBy: null })));
  t.ok(receivesChange(subscription({ scope: 'all' }), change({ claimedBy: 8 })));
  t.notOk(receivesChange(subscription({ scope: 'all' }), change({ country: 'at' })));
});

t.test('only the subscribed kinds arrive; * means all', async (t) => {
  t.ok(receivesChange(subscription({ events: ['created', 'updated'] }), change()));
  t.notOk(receivesChange(subscription({ events: ['created'] }), change()));
});

t.test('a change only one partner may see reaches only that partner, and admins', async (t) => {
  t.ok(receivesChange(subscription({ scope: 'all' }), change({ kind: 'review_added', visibleTo: 7 })));
  t.notOk(receivesChange(subscription({ scope: 'all', partnerId: 8 }), change({ kind: 'review_added', visibleTo: 7 })));
  t.ok(receivesChange(subscription({ scope: 'all', partnerId: 9, partnerRole: 'admin' }), change({ kind: 'review_added', visibleTo: 7 })));
});

t.test('changes from before the subscription existed are not replayed', async (t) => {
  t.notOk(receivesChange(subscription({ createdAt: later }), change({ at: created })));
});

t.test('the message carries the listing id as a string, the version and the fields the change touched', async (t) => {
  t.same(changeMessage('msg_x', { kind: 'updated', country: 'de', listingId: 42, version: 3, at: later, fields: ['name', 'version'] }), {
    id: 'msg_x',
    type: 'updated',
    country: 'de',
    listing_id: '42',
    version: 3,
    at: '2026-01-01T00:00:05.000Z',
    fields: ['name', 'version'],
  });
});
