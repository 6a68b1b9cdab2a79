// When a failed webhook delivery is tried again (docs/contract.md §15): the first retry within
// 10 s, then backing off until well over 24 h have passed, as the Standard Webhooks schedule does.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits before retry 1, 2, …: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 h in all). */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** The schedule of `WEBHOOK_RETRY_SCHEDULE_MS` (a comma list of milliseconds); empty means the default. */
export function parseRetrySchedule(setting: string): readonly number[] {
  if (setting.trim() === '') return DEFAULT_RETRY_SCHEDULE_MS;
  return setting.split(',').map((part) => Number(part.trim()));
}

/**
 * How long to wait after failed attempt number `failedAttempts` (1 for the first attempt), or
 * undefined when the schedule is exhausted: the delivery has failed for good.
 */
export function retryDelayMs(schedule: readonly number[], failedAttempts: number): number | undefined {
  return schedule[failedAttempts - 1];
}
