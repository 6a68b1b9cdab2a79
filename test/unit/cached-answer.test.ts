import t from 'tap';
import { cachedAnswer } from '../../src/platform/cached-answer.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('calls while one is in flight share it; the answer is reused for the ttl, then asked again', async (t) => {
  let calls = 0;
  const answer = cachedAnswer(100, async () => {
    calls++;
    await sleep(20);
    return calls;
  });
  t.same(await Promise.all(Array.from({ length: 50 }, answer)), Array(50).fill(1), 'fifty at once: one call');
  t.equal(await answer(), 1, 'within the ttl: the same answer');
  t.equal(calls, 1);
  await sleep(120);
  t.equal(await answer(), 2, 'after the ttl: asked again');
});

t.test('a failure is shared by the calls that waited for it, but not kept', async (t) => {
  let calls = 0;
  const answer = cachedAnswer(10_000, async () => {
    calls++;
    await sleep(5);
    if (calls === 1) throw new Error('down');
    return 'up';
  });
  const first = await Promise.allSettled([answer(), answer()]);
  t.same(
    first.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  t.equal(await answer(), 'up', 'the next call asks again');
  t.equal(calls, 2);
});

t.test('a ttl of 0 still shares the call in flight', async (t) => {
  let calls = 0;
  const answer = cachedAnswer(0, async () => {
    calls++;
    await sleep(5);
    return calls;
  });
  t.same(await Promise.all([answer(), answer()]), [1, 1]);
  t.equal(await answer(), 2);
});
