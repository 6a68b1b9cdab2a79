// A small in-process cache shared by the key cache (src/partners) and the rate limit fallback.
/**
 * Entries expire after `ttlMs`; past `max` entries the oldest goes first, so a flood of new keys
 * churns only this cache and costs no more memory than `max` entries.
 */
export function createBoundedCache<V>({ max, ttlMs }: { max: number; ttlMs: number }) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V): void {
      if (ttlMs <= 0) return;
      entries.delete(key); // re-inserted at the end: Map iterates in insertion order, oldest first
      while (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, until: Date.now() + ttlMs });
    },
    delete(key: string): void {
      entries.delete(key);
    },
    clear(): void {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

export type BoundedCache<V> = ReturnType<typeof createBoundedCache<V>>;
