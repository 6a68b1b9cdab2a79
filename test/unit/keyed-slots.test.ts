import t from 'tap';
import { createKeyedSlots, type Acquired } from '../../src/platform/keyed-slots.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Acquires and records the outcome as it arrives. */
function taker(slots: ReturnType<typeof createKeyedSlots>) {
  const got = new Map<string, Acquired>();
  const take = (name: string, key: string, signal?: AbortSignal) =>
    slots.acquire(key, signal).then((r) => {
      got.set(name, r);
      return r;
    });
  const release = (name: string) => {
    const r = got.get(name);
    if (!r?.ok) throw new Error(`${name} holds no slot`);
    r.release();
  };
  return { got, take, release };
}

t.test('the first `size` keys take a slot at once, the next wait and are served in arrival order', async (t) => {
  const slots = createKeyedSlots({ size: 2, waitMs: 60_000 });
  const { got, take, release } = taker(slots);
  void take('a', 'A');
  void take('b', 'B');
  void take('c', 'C');
  void take('d', 'D');
  await settled();
  t.same([...got.keys()], ['a', 'b'], 'two hold a slot');
  t.equal(slots.waiting, 2);
  release('a');
  await settled();
  t.same([...got.keys()], ['a', 'b', 'c'], 'a release lets the oldest waiter in');
  release('b');
  release('c');
  release('c'); // a second release of the same slot frees nothing more
  await settled();
  t.same([...got.keys()], ['a', 'b', 'c', 'd']);
  t.equal(slots.waiting, 0);
  t.equal(slots.free, 1, 'd holds one slot, one is free: never more than `size`');
  release('d');
  t.equal(slots.free, 2);
});

t.test('a key that holds or waits for a slot is refused at once with key_busy; other keys are not', async (t) => {
  const slots = createKeyedSlots({ size: 1, waitMs: 60_000 });
  const { got, take, release } = taker(slots);
  await take('a1', 'A');
  t.same(await take('a2', 'A'), { ok: false, reason: 'key_busy' }, 'A holds the slot: its second request is refused');
  void take('b1', 'B');
  await settled();
  t.equal(slots.waiting, 1, 'B waits for the slot');
  t.same(await take('b2', 'B'), { ok: false, reason: 'key_busy' }, 'B waits already: its second request is refused');
  t.equal(slots.waiting, 1, 'and takes no place in the queue');
  release('a1');
  await settled();
  t.equal(got.get('b1')?.ok, true, 'B is served');
  void take('a3', 'A');
  await settled();
  t.equal(slots.waiting, 1, 'A, having released its slot, may wait again, behind B who holds the only one');
  release('b1');
  await settled();
  t.equal(got.get('a3')?.ok, true);
  release('a3');
});

t.test('a waiter gets timeout after waitMs, leaves the queue and frees its key; the slot goes to the next waiter', async (t) => {
  const slots = createKeyedSlots({ size: 1, waitMs: 50 });
  const { got, take, release } = taker(slots);
  await take('a', 'A');
  const started = Date.now();
  t.same(await take('b', 'B'), { ok: false, reason: 'timeout' });
  t.ok(Date.now() - started >= 45, 'after waitMs');
  t.equal(slots.waiting, 0, 'the waiter left the queue');
  void take('b2', 'B');
  await settled();
  t.equal(slots.waiting, 1, 'its key may wait again');
  release('a');
  await settled();
  t.equal(got.get('b2')?.ok, true, 'the released slot goes to the live waiter, not to the one that timed out');
  release('b2');
  t.equal(slots.free, 1, 'every slot is free again: nothing leaked');
});

t.test('a waiter whose signal aborts leaves the queue at once; an aborted signal never takes a slot', async (t) => {
  const slots = createKeyedSlots({ size: 1, waitMs: 60_000 });
  const { got, take, release } = taker(slots);
  await take('a', 'A');
  const client = new AbortController();
  const waiting = take('b', 'B', client.signal);
  void take('c', 'C');
  await settled();
  t.equal(slots.waiting, 2);
  client.abort();
  t.same(await waiting, { ok: false, reason: 'aborted' }, 'the client left');
  t.equal(slots.waiting, 1, 'and its place in the queue with it');
  release('a');
  await settled();
  t.equal(got.get('c')?.ok, true, 'the slot goes to the next live waiter');
  release('c');
  t.same(await take('d', 'D', AbortSignal.abort()), { ok: false, reason: 'aborted' }, 'a signal aborted before the call');
  t.equal(slots.free, 1, 'every slot is free again: nothing leaked');
  t.equal((await take('b2', 'B')).ok, true, 'the key that left may come back');
});

t.test('a waiter granted a slot is not timed out afterwards', async (t) => {
  const slots = createKeyedSlots({ size: 1, waitMs: 30 });
  const { take, release } = taker(slots);
  await take('a', 'A');
  const b = take('b', 'B');
  setTimeout(() => release('a'), 5);
  t.equal((await b).ok, true);
  await sleep(60);
  t.equal(slots.free, 0, 'B still holds its slot after waitMs');
  t.same(await take('b2', 'B'), { ok: false, reason: 'key_busy' });
  release('b');
  t.equal(slots.free, 1);
});
