import t from 'tap';
import { acquireOrDefer, createDeliverySlots, deferralDelayMs, FIRST_DEFERRAL_MS, HEALTHY_ATTEMPT_MS, MAX_DEFERRAL_MS } from '../../indexer/delivery-slots.js';

const limits = { perSubscription: 2, perPartner: 4 };

t.test('a subscription runs at most its cap of attempts; a release frees one slot', async (t) => {
  const slots = createDeliverySlots(limits);
  const hook = { webhookId: 1, partnerId: 10 };
  const first = slots.tryAcquire(hook);
  const second = slots.tryAcquire(hook);
  t.ok(first && second, 'two attempts run');
  t.equal(slots.tryAcquire(hook), undefined, 'the third waits');
  first!();
  t.ok(slots.tryAcquire(hook), 'a slot freed by a finished attempt is taken again');
  t.same(slots.running(hook), { subscription: 2, partner: 2 });
});

t.test('a partner runs at most its cap across all its subscriptions', async (t) => {
  const slots = createDeliverySlots(limits);
  const taken = [1, 1, 2, 2].map((webhookId) => slots.tryAcquire({ webhookId, partnerId: 10 }));
  t.ok(taken.every(Boolean), 'four attempts over two subscriptions run');
  t.equal(slots.tryAcquire({ webhookId: 3, partnerId: 10 }), undefined, 'a third subscription with no attempt of its own waits for its partner');
  t.same(slots.running({ webhookId: 3, partnerId: 10 }), { subscription: 0, partner: 4 });
});

t.test('one partner at its cap takes nothing from another', async (t) => {
  const slots = createDeliverySlots(limits);
  // Partner 10's receivers never answer: every subscription of it tries, and four attempts run.
  const held = Array.from({ length: 10 }, (_, i) => slots.tryAcquire({ webhookId: 1 + (i % 5), partnerId: 10 })).filter(Boolean);
  t.equal(held.length, 4);
  t.ok(slots.tryAcquire({ webhookId: 100, partnerId: 20 }), "another partner's delivery runs at once");
  t.ok(slots.tryAcquire({ webhookId: 100, partnerId: 20 }));
  t.equal(slots.tryAcquire({ webhookId: 100, partnerId: 20 }), undefined, "within its own subscription's cap");
});

t.test('a refused try takes nothing, and releasing twice frees one slot only', async (t) => {
  const slots = createDeliverySlots({ perSubscription: 1, perPartner: 1 });
  const hook = { webhookId: 1, partnerId: 10 };
  const release = slots.tryAcquire(hook)!;
  for (let i = 0; i < 5; i++) t.equal(slots.tryAcquire(hook), undefined);
  release();
  release();
  t.same(slots.running(hook), { subscription: 0, partner: 0 }, 'nothing counted below zero');
  const again = slots.tryAcquire(hook);
  t.ok(again);
  t.equal(slots.tryAcquire(hook), undefined, 'the double release did not open a second slot');
});

t.test('a delivery put back waits about as long as the oldest attempt holding the cap has run, within bounds', async (t) => {
  t.equal(
    deferralDelayMs(0, () => 0),
    FIRST_DEFERRAL_MS / 2,
    'a healthy receiver: the shortest wait',
  );
  t.equal(
    deferralDelayMs(20, () => 0.999999),
    FIRST_DEFERRAL_MS,
  );
  t.equal(
    deferralDelayMs(4000, () => 0.999999),
    4000,
    'an attempt running for 4 s: about 4 s',
  );
  t.equal(
    deferralDelayMs(4000, () => 0),
    2000,
    'spread over the upper half',
  );
  t.equal(
    deferralDelayMs(1e9, () => 0.999999),
    MAX_DEFERRAL_MS,
    'never longer than the longest wait',
  );
  for (const busy of [0, 5, 150, 9_999, 10_000, 60_000]) {
    const delay = deferralDelayMs(busy);
    t.ok(delay >= FIRST_DEFERRAL_MS / 2 && delay <= MAX_DEFERRAL_MS, `busy ${busy} ms: ${delay} ms within bounds`);
  }
});

t.test('busyForMs: the age of the oldest attempt of the cap that is full, else 0', async (t) => {
  let clock = 1000;
  const slots = createDeliverySlots({ perSubscription: 2, perPartner: 3 }, () => clock);
  const a = { webhookId: 1, partnerId: 7 };
  const b = { webhookId: 2, partnerId: 7 };
  const first = slots.tryAcquire(a)!;
  clock += 500;
  t.equal(slots.busyForMs(a), 0, 'below both caps');
  slots.tryAcquire(a);
  clock += 300;
  t.equal(slots.busyForMs(a), 800, "the subscription's cap: its oldest attempt");
  slots.tryAcquire(b);
  clock += 100;
  t.equal(slots.busyForMs(b), 900, "the partner's cap: the partner's oldest attempt");
  first();
  t.equal(slots.busyForMs(a), 0, 'a freed slot: not at a cap');
});

t.test('acquireOrDefer waits in the worker while a healthy receiver holds the cap, and gives up on an old attempt', async (t) => {
  const hook = { webhookId: 3, partnerId: 9 };
  const healthy = createDeliverySlots({ perSubscription: 1, perPartner: 4 });
  const first = healthy.tryAcquire(hook)!;
  setTimeout(first, 20);
  t.ok(await acquireOrDefer(healthy, hook), 'the slot the young attempt freed is taken');

  let clock = 0;
  const stuck = createDeliverySlots({ perSubscription: 1, perPartner: 4 }, () => clock);
  stuck.tryAcquire(hook);
  clock += HEALTHY_ATTEMPT_MS;
  const started = Date.now();
  t.equal(await acquireOrDefer(stuck, hook), undefined, 'an attempt running this long: put back');
  t.ok(Date.now() - started < 50, 'at once');
});
