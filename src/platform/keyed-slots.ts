// A counting semaphore that is fair between keys: each key (an API key's hash) holds or waits for
// at most one slot, and nobody waits longer than `waitMs`. Without the per-key bound one client
// could take every slot and queue behind itself ahead of everyone else; without the wait bound a
// waiter would sit on its socket for as long as the slots stay busy (docs/security.md). Used by
// the large-body gate and the export.

/** Why a slot was not given. */
export type Refusal =
  /** The key already holds or waits for a slot. */
  | 'key_busy'
  /** No slot came free within `waitMs`. */
  | 'timeout'
  /** The caller's signal aborted while it waited (its client went away). */
  | 'aborted';

export type Acquired = { ok: true; release: () => void } | { ok: false; reason: Refusal };

interface Waiter {
  grant: () => void;
}

export function createKeyedSlots({ size, waitMs }: { size: number; waitMs: number }) {
  let free = size;
  /** Keys holding or waiting for a slot. */
  const busy = new Set<string>();
  const queue: Waiter[] = [];

  /** A release function that frees `key`'s slot once, however often it is called. */
  function lease(key: string): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      busy.delete(key);
      const next = queue.shift();
      if (next)
        next.grant(); // the slot passes on without ever being free
      else free++;
    };
  }

  return {
    /** Takes a slot for `key`, waiting at most `waitMs`; `signal` gives up waiting. Never rejects. */
    acquire(key: string, signal?: AbortSignal): Promise<Acquired> {
      if (busy.has(key)) return Promise.resolve({ ok: false, reason: 'key_busy' });
      if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
      busy.add(key);
      if (free > 0) {
        free--;
        return Promise.resolve({ ok: true, release: lease(key) });
      }
      return new Promise<Acquired>((resolve) => {
        // Leaving the queue, for whatever reason, frees the key: no waiter outlives its request.
        const leave = (reason: Refusal) => {
          const at = queue.indexOf(waiter);
          if (at < 0) return; // already granted
          queue.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          busy.delete(key);
          resolve({ ok: false, reason });
        };
        const onAbort = () => leave('aborted');
        const timer = setTimeout(() => leave('timeout'), waitMs);
        const waiter: Waiter = {
          grant: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            resolve({ ok: true, release: lease(key) });
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
    },
    /** Requests waiting for a slot. */
    get waiting(): number {
      return queue.length;
    },
    /** Slots nobody holds. */
    get free(): number {
      return free;
    },
  };
}

export type KeyedSlots = ReturnType<typeof createKeyedSlots>;
