import t from 'tap';
import { createMicroBatcher } from '../../indexer/micro-batcher.js';

/** A batcher whose flush records each batch and doubles every number (and fails odd ones when asked). */
function recording(opts: { maxItems: number; maxWaitMs: number; failOdd?: boolean }) {
  const batches: number[][] = [];
  const add = createMicroBatcher<number, number>({
    ...opts,
    flush: async (items) => {
      batches.push(items);
      return items.map((n) => (opts.failOdd && n % 2 ? new Error(`odd ${n}`) : n * 2));
    },
  });
  return { add, batches };
}

t.test('items added together are flushed in one batch, and each caller gets its own outcome', async (t) => {
  const { add, batches } = recording({ maxItems: 10, maxWaitMs: 20 });
  const outcomes = await Promise.all([1, 2, 3].map(add));
  t.same(outcomes, [2, 4, 6]);
  t.same(batches, [[1, 2, 3]], 'one flush for the three items');
});

t.test('a full batch flushes at once, without waiting for the timer', async (t) => {
  const { add, batches } = recording({ maxItems: 2, maxWaitMs: 60_000 });
  // With a one-minute wait, these resolve only because each batch of two flushes when it is full.
  const outcomes = await Promise.all([1, 2, 3, 4].map(add));
  t.same(outcomes, [2, 4, 6, 8]);
  t.same(batches, [
    [1, 2],
    [3, 4],
  ]);
});

t.test('a batch that is not full flushes after maxWaitMs', async (t) => {
  const { add, batches } = recording({ maxItems: 100, maxWaitMs: 10 });
  t.equal(await add(5), 10);
  t.same(batches, [[5]]);
  t.equal(await add(6), 12, 'a later item starts a new batch');
  t.same(batches, [[5], [6]]);
});

t.test('an item that fails rejects only its own caller', async (t) => {
  const { add, batches } = recording({ maxItems: 10, maxWaitMs: 5, failOdd: true });
  const outcomes = await Promise.allSettled([1, 2, 3, 4].map(add));
  t.same(
    outcomes.map((o) => o.status),
    ['rejected', 'fulfilled', 'rejected', 'fulfilled'],
  );
  t.equal((outcomes[0] as PromiseRejectedResult).reason.message, 'odd 1');
  t.equal((outcomes[1] as PromiseFulfilledResult<number>).value, 4);
  t.equal(batches.length, 1);
});

t.test('a flush that throws rejects every item of its batch, and the next batch works again', async (t) => {
  let down = true;
  const add = createMicroBatcher<string, string>({
    maxItems: 10,
    maxWaitMs: 5,
    flush: async (items) => {
      if (down) throw new Error('opensearch is down');
      return items.map((s) => s.toUpperCase());
    },
  });
  const failed = await Promise.allSettled(['a', 'b'].map(add));
  t.same(
    failed.map((o) => o.status),
    ['rejected', 'rejected'],
  );
  t.equal((failed[0] as PromiseRejectedResult).reason.message, 'opensearch is down');
  down = false;
  t.same(await Promise.all(['c', 'd'].map(add)), ['C', 'D']);
});

t.test('a flush that answers for the wrong number of items fails its batch instead of resolving callers wrongly', async (t) => {
  const add = createMicroBatcher<number, number>({ maxItems: 10, maxWaitMs: 5, flush: async () => [1] });
  const outcomes = await Promise.allSettled([1, 2].map(add));
  t.same(
    outcomes.map((o) => o.status),
    ['rejected', 'rejected'],
  );
});
