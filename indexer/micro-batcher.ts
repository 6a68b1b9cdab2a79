// Collects items for up to `maxWaitMs` or `maxItems`, then hands them to `flush` at once; each
// caller awaits the outcome of its own item. The indexer funnels its concurrent jobs through one,
// so that N jobs cost one PostgreSQL read, one `_bulk` and one outbox update (docs/architecture.md,
// "The indexer"). Pure of I/O: `flush` does the work.

/** One outcome per item, in the order of the items: a value, or the Error that item failed with. */
export type Flush<I, O> = (items: I[]) => Promise<(O | Error)[]>;

export interface MicroBatcherOptions<I, O> {
  maxItems: number;
  maxWaitMs: number;
  flush: Flush<I, O>;
}

interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(err: unknown): void;
}

/**
 * Returns `add(item)`. A batch flushes when it reaches `maxItems` or `maxWaitMs` after its first
 * item, whichever comes first; batches flush independently, so a slow flush does not hold back
 * the next batch. When `flush` throws, every item of its batch fails with that error.
 */
export function createMicroBatcher<I, O>({ maxItems, maxWaitMs, flush }: MicroBatcherOptions<I, O>): (item: I) => Promise<O> {
  let batch: Pending<I, O>[] = [];
  let timer: NodeJS.Timeout | undefined;

  async function run(items: Pending<I, O>[]): Promise<void> {
    let outcomes: (O | Error)[];
    try {
      outcomes = await flush(items.map((p) => p.item));
      if (outcomes.length !== items.length) throw new Error(`flush returned ${outcomes.length} outcomes for ${items.length} items`);
    } catch (err) {
      for (const p of items) p.reject(err);
      return;
    }
    items.forEach((p, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof Error) p.reject(outcome);
      else p.resolve(outcome);
    });
  }

  function flushNow(): void {
    clearTimeout(timer);
    timer = undefined;
    const items = batch;
    batch = [];
    if (items.length) void run(items);
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      batch.push({ item, resolve, reject });
      if (batch.length >= maxItems) flushNow();
      else timer ??= setTimeout(flushNow, maxWaitMs);
    });
}
