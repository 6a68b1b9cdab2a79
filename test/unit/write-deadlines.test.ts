import { Writable } from 'node:stream';
import t from 'tap';
import { watchWrites, type Expiry } from '../../src/http/write-deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A writable with a small buffer whose reader takes a chunk only when `take()` is called. */
function reluctantReader() {
  const pending: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: 4,
    write(_chunk, _encoding, done) {
      pending.push(done);
    },
  });
  out.on('error', () => {});
  return { out, take: () => pending.shift()?.() };
}

function watch(out: Writable, stallMs: number, maxMs: number) {
  const expired: Expiry[] = [];
  const stop = watchWrites(out, { stallMs, maxMs }, (why) => expired.push(why));
  return { expired, stop };
}

t.test('an answer whose buffer stays full for stallMs expires as stalled, once', async (t) => {
  const { out } = reluctantReader();
  const { expired } = watch(out, 80, 60_000);
  out.write('more than four bytes');
  t.equal(out.writableNeedDrain, true);
  await sleep(40);
  t.same(expired, [], 'not before stallMs');
  await sleep(140);
  t.same(expired, ['stalled'], 'after stallMs and at most a quarter of it more, once');
});

t.test('a slow reader that drains now and then does not stall, however long it takes', async (t) => {
  const { out, take } = reluctantReader();
  const { expired, stop } = watch(out, 80, 60_000);
  for (let i = 0; i < 8; i++) {
    out.write('more than four bytes');
    await sleep(50); // blocked for most of a stall period each time, never for all of it
    take();
  }
  t.same(expired, []);
  stop();
});

t.test('an answer that keeps flowing expires as too_long after maxMs', async (t) => {
  const { out, take } = reluctantReader();
  const { expired } = watch(out, 60_000, 100);
  const started = Date.now();
  while (expired.length === 0 && Date.now() - started < 1000) {
    out.write('x');
    take();
    await sleep(10);
  }
  t.same(expired, ['too_long']);
  t.ok(Date.now() - started >= 95, 'after maxMs');
});

t.test('nothing expires once the answer closed or the watch was stopped', async (t) => {
  const closed = reluctantReader();
  const a = watch(closed.out, 30, 60);
  closed.out.write('more than four bytes');
  closed.out.destroy();
  const stopped = reluctantReader();
  const b = watch(stopped.out, 30, 60);
  stopped.out.write('more than four bytes');
  b.stop();
  await sleep(120);
  t.same(a.expired, [], 'closed');
  t.same(b.expired, [], 'stopped');
});
