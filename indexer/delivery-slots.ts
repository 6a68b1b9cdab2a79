// How many webhook attempts of one subscription, and of one partner, run at once in this indexer
// (docs/security.md, "Webhook deliveries share one pool"). The delivery worker's slots are shared
// by every partner: without a cap, a receiver that accepts connections and never answers holds a
// slot for the whole attempt timeout per delivery, and ten such subscriptions hold them all. A
// delivery that finds its subscription or partner at the cap is not attempted; the worker puts its
// job back for later (indexer/webhook-delivery.ts). Pure of I/O: counters in memory.

export interface SlotLimits {
  perSubscription: number;
  perPartner: number;
}

/** Whose attempt it is: the caps count per subscription and per partner. */
export interface SlotOwner {
  webhookId: number;
  partnerId: number;
}

export interface DeliverySlots {
  /**
   * Takes a slot for an attempt of `owner`, or answers undefined when its subscription or its
   * partner already runs as many attempts as allowed. The returned release frees the slot; calling
   * it again does nothing.
   */
  tryAcquire(owner: SlotOwner): (() => void) | undefined;
  /** Attempts of `owner`'s subscription and of its partner running now. */
  running(owner: SlotOwner): { subscription: number; partner: number };
  /**
   * How long the oldest running attempt that keeps `owner` at its cap (its subscription's, else
   * its partner's) has been running, in ms; 0 when `owner` is not at a cap.
   */
  busyForMs(owner: SlotOwner): number;
  /** Resolves at the next release of any slot, or after `ms`, whichever comes first. */
  nextRelease(ms: number): Promise<void>;
}

export function createDeliverySlots(limits: SlotLimits, now: () => number = Date.now): DeliverySlots {
  // The start times of the attempts running, per subscription and per partner; owners with none are removed.
  const bySubscription = new Map<number, number[]>();
  const byPartner = new Map<number, number[]>();
  const count = (map: Map<number, number[]>, key: number) => map.get(key)?.length ?? 0;
  const add = (map: Map<number, number[]>, key: number, startedAt: number) => {
    const starts = map.get(key);
    if (starts) starts.push(startedAt);
    else map.set(key, [startedAt]);
  };
  const remove = (map: Map<number, number[]>, key: number, startedAt: number) => {
    const starts = map.get(key)!;
    starts.splice(starts.indexOf(startedAt), 1);
    if (starts.length === 0) map.delete(key);
  };
  /** Waiters of nextRelease, woken together at the next release. */
  let wakers: (() => void)[] = [];
  const oldestAge = (map: Map<number, number[]>, key: number) => {
    const starts = map.get(key);
    return starts ? now() - Math.min(...starts) : 0;
  };
  return {
    tryAcquire(owner) {
      if (count(bySubscription, owner.webhookId) >= limits.perSubscription || count(byPartner, owner.partnerId) >= limits.perPartner) return undefined;
      const startedAt = now();
      add(bySubscription, owner.webhookId, startedAt);
      add(byPartner, owner.partnerId, startedAt);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        remove(bySubscription, owner.webhookId, startedAt);
        remove(byPartner, owner.partnerId, startedAt);
        const waiting = wakers;
        wakers = [];
        for (const wake of waiting) wake();
      };
    },
    running(owner) {
      return { subscription: count(bySubscription, owner.webhookId), partner: count(byPartner, owner.partnerId) };
    },
    nextRelease(ms) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    busyForMs(owner) {
      if (count(bySubscription, owner.webhookId) >= limits.perSubscription) return oldestAge(bySubscription, owner.webhookId);
      if (count(byPartner, owner.partnerId) >= limits.perPartner) return oldestAge(byPartner, owner.partnerId);
      return 0;
    },
  };
}

/**
 * A cap held only by attempts younger than this is held by a receiver that answers: a delivery
 * waits in the worker for one of them to end instead of being put back (acquireOrDefer).
 */
export const HEALTHY_ATTEMPT_MS = 500;

/**
 * A slot for `owner`'s attempt. At a cap whose attempts are all younger than HEALTHY_ATTEMPT_MS,
 * waits in the worker for them to end (a healthy receiver's burst then drains at the cap's pace,
 * milliseconds apart); answers undefined once the cap is held by an older attempt, and the caller
 * puts the delivery back. A dead receiver therefore holds a worker slot in waiting for at most
 * HEALTHY_ATTEMPT_MS per delivery, once.
 */
export async function acquireOrDefer(slots: DeliverySlots, owner: SlotOwner): Promise<(() => void) | undefined> {
  for (;;) {
    const release = slots.tryAcquire(owner);
    if (release) return release;
    const busy = slots.busyForMs(owner);
    if (busy >= HEALTHY_ATTEMPT_MS) return undefined;
    await slots.nextRelease(HEALTHY_ATTEMPT_MS - busy);
  }
}

/** The shortest wait of a delivery put back at the cap: a busy but healthy receiver frees a slot within it. */
export const FIRST_DEFERRAL_MS = 100;
/**
 * The longest wait. Every put-back delivery comes round once per wait, so this bounds what a dead
 * receiver's backlog costs the worker: a backlog of n deliveries is looked at n / 30 times a second.
 */
export const MAX_DEFERRAL_MS = 30_000;

/**
 * How long a delivery waits after it found its subscription or partner at the cap, given how long
 * the oldest attempt holding that cap has run (`busyForMs`): that long, between FIRST_DEFERRAL_MS
 * and MAX_DEFERRAL_MS, spread over its upper half (`random` in [0, 1)) so that deliveries put
 * back together do not all come back together. A healthy receiver answers within milliseconds,
 * so its burst waits the shortest time and drains at the cap's pace; a receiver that never
 * answers holds its attempts for the whole timeout, so its backlog comes round seldom.
 */
export function deferralDelayMs(busyForMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DEFERRAL_MS, Math.max(FIRST_DEFERRAL_MS, busyForMs));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
