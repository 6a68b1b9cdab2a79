import t from 'tap';
import { createSlots } from '../../src/plugins/large-body-gate.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

t.test('slots: the first `size` acquire at once, the rest wait and are served in arrival order', async (t) => {
  const slots = createSlots(2);
  const order: number[] = [];
  const take = (n: number) => slots.acquire().then(() => order.push(n));
  void take(1); void take(2); void take(3); void take(4);
  await settled();
  t.same(order, [1, 2], 'two hold a slot');
  t.equal(slots.waiting, 2);
  slots.release();
  await settled();
  t.same(order, [1, 2, 3], 'a release lets the oldest waiter in');
  slots.release();
  slots.release();
  slots.release();
  await settled();
  t.same(order, [1, 2, 3, 4]);
  t.equal(slots.waiting, 0);
  void take(5); void take(6); void take(7);
  await settled();
  t.same(order, [1, 2, 3, 4, 5, 6], 'released slots are free again, no more than `size` of them');
});
