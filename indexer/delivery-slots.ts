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
}

export function createDeliverySlots(limits: SlotLimits): DeliverySlots {
  const bySubscription = new Map<number, number>();
  const byPartner = new Map<number, number>();
  const count = (map: Map<number, number>, key: number) => map.get(key) ?? 0;
  // Entries at zero are removed, so the maps hold only owners with attempts running.
  const add = (map: Map<number, number>, key: number, n: number) => {
    const next = count(map, key) + n;
    if (next === 0) map.delete(key);
    else map.set(key, next);
  };
  return {
    tryAcquire(owner) {
      if (count(bySubscription, owner.webhookId) >= limits.perSubscription || count(byPartner, owner.partnerId) >= limits.perPartner) return undefined;
      add(bySubscription, owner.webhookId, 1);
      add(byPartner, owner.partnerId, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        add(bySubscription, owner.webhookId, -1);
        add(byPartner, owner.partnerId, -1);
      };
    },
    running(owner) {
      return { subscription: count(bySubscription, owner.webhookId), partner: count(byPartner, owner.partnerId) };
    },
  };
}

/** The first wait of a delivery put back at the cap: a busy but healthy receiver frees a slot within it. */
export const FIRST_DEFERRAL_MS = 100;
/**
 * The longest wait. Every put-back delivery comes round once per wait, so this bounds what a dead
 * receiver's backlog costs the worker: a backlog of n deliveries is looked at n / 30 times a second.
 */
export const MAX_DEFERRAL_MS = 30_000;

/**
 * How long a delivery waits after it found its subscription or partner at the cap for the
 * `deferrals + 1`-th time: doubling from FIRST_DEFERRAL_MS up to MAX_DEFERRAL_MS, and spread over
 * the upper half of that (`random` in [0, 1)) so that deliveries put back together do not all come
 * back together.
 */
export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DEFERRAL_MS, FIRST_DEFERRAL_MS * 2 ** Math.min(Math.max(deferrals, 0), 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
