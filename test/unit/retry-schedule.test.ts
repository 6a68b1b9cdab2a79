import t from 'tap';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule, retryDelayMs } from '../../src/webhooks/retry-schedule.js';

t.test('the default schedule retries first within 10 s, then backs off for more than 24 h in all', async (t) => {
  t.ok(DEFAULT_RETRY_SCHEDULE_MS[0]! <= 10_000);
  for (let i = 1; i < DEFAULT_RETRY_SCHEDULE_MS.length; i++) t.ok(DEFAULT_RETRY_SCHEDULE_MS[i]! >= DEFAULT_RETRY_SCHEDULE_MS[i - 1]!, `wait ${i + 1} is not shorter`);
  const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
  t.ok(total >= 24 * 3600 * 1000, `${total} ms ≥ 24 h`);
});

t.test('each failed attempt waits the next step; after the last step the delivery has failed', async (t) => {
  const schedule = [100, 200];
  t.equal(retryDelayMs(schedule, 1), 100);
  t.equal(retryDelayMs(schedule, 2), 200);
  t.equal(retryDelayMs(schedule, 3), undefined);
});

t.test('WEBHOOK_RETRY_SCHEDULE_MS is a comma list; empty means the default', async (t) => {
  t.same(parseRetrySchedule('50, 100,200'), [50, 100, 200]);
  t.equal(parseRetrySchedule(''), DEFAULT_RETRY_SCHEDULE_MS);
});
