import { describe, expect, it } from 'vitest';
import { decide, nextAttemptDelay } from '../jobs/policy.js';
import {
  decideWithSchedule,
  formatDelay,
  MAX_SCHEDULE_TOTAL_MS,
  parseRetryAfter,
  parseRetrySchedule,
  RETRY_AFTER_MAX_MS,
  RETRY_SCHEDULE_PRESETS,
  type RetrySchedule,
  retryWindow,
  SPEC_SCHEDULE,
  scheduleArrivalSlackMs,
  scheduleDelay,
} from './schedule.js';

const parsed = (text: unknown): RetrySchedule => {
  const result = parseRetrySchedule(text);
  if (!result.ok) throw new Error(result.message);
  return result.schedule;
};

describe('parseRetrySchedule', () => {
  it('reads the presets, and absent or empty as the spec schedule', () => {
    expect(parsed(undefined)).toBe(SPEC_SCHEDULE);
    expect(parsed('')).toBe(SPEC_SCHEDULE);
    expect(parsed('spec').delaysMs).toEqual([1000, 2000, 4000]);
    expect(parsed(' extended ')).toBe(RETRY_SCHEDULE_PRESETS.extended);
    expect(parsed('long')).toBe(RETRY_SCHEDULE_PRESETS.long);
  });

  it('reads explicit lists with s, m, h and d', () => {
    expect(parsed('30s, 5m,1h , 1d')).toEqual({
      name: 'custom',
      delaysMs: [30_000, 300_000, 3_600_000, 86_400_000],
    });
  });

  it.each([
    ['5x', /retry 1: "5x" is not a delay; write a whole number with s, m, h or d/],
    ['1s, , 2s', /retry 2: "" is not a delay/],
    ['0s', /retry 1: "0s" is under 1s/],
    ['hourly', /"hourly" is not a preset; write a preset \(spec, extended, long\)/],
    [Array(13).fill('1s').join(','), /13 retries; at most 12 \(remove 1\)/],
    ['2d, 1d, 1s', /the delays add up to 259201s; at most 3d/],
    [42, /must be text/],
  ])('refuses %j with a message that says how to fix it', (input, message) => {
    const result = parseRetrySchedule(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('accepts 12 retries adding up to exactly 3 days', () => {
    expect(parsed('1d, 1d, 23h, 1h').delaysMs.reduce((a, b) => a + b, 0)).toBe(MAX_SCHEDULE_TOTAL_MS);
    expect(parsed(Array(12).fill('6h').join(',')).delaysMs).toHaveLength(12);
  });

  it('keeps every preset within the limits', () => {
    for (const preset of Object.values(RETRY_SCHEDULE_PRESETS)) {
      expect(preset.delaysMs.length).toBeLessThanOrEqual(12);
      expect(preset.delaysMs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_SCHEDULE_TOTAL_MS);
      expect(parsed(preset.delaysMs.map(formatDelay).join(',')).delaysMs).toEqual(preset.delaysMs);
    }
  });
});

describe('the spec schedule stays exactly the policy', () => {
  it('draws the same delays and decisions as policy.ts', () => {
    for (const draw of [0, 0.3, 0.999]) {
      for (const retry of [1, 2, 3]) {
        expect(scheduleDelay(SPEC_SCHEDULE, retry, () => draw)).toBe(nextAttemptDelay(retry, () => draw));
      }
      for (const attempt of [1, 2, 3, 4, 5]) {
        expect(decideWithSchedule(SPEC_SCHEDULE, attempt, 'retry', () => draw)).toEqual(
          decide(attempt, 'retry', () => draw),
        );
      }
    }
  });

  it('ignores Retry-After', () => {
    expect(decideWithSchedule(SPEC_SCHEDULE, 1, 'retry', () => 0, 60_000)).toEqual({ retryInMs: 1000 });
  });
});

describe('every schedule', () => {
  const schedules = [...Object.values(RETRY_SCHEDULE_PRESETS), parsed('1s, 3s, 90s, 2h')];

  it('draws every retry inside the first half of its window [d, 1.1 d]', () => {
    for (const schedule of schedules) {
      schedule.delaysMs.forEach((d, i) => {
        const [lo, hi] = retryWindow(schedule, i + 1);
        expect([lo, hi]).toEqual([d, d * 1.1]);
        expect(scheduleDelay(schedule, i + 1, () => 0)).toBe(d);
        const latest = scheduleDelay(schedule, i + 1, () => 1);
        expect(latest).toBe(Math.floor(d * 1.05));
        expect(hi - latest).toBeGreaterThanOrEqual(scheduleArrivalSlackMs(schedule, i + 1) - 1);
      });
    }
  });

  it('retries as many times as it lists, then ends exhausted; never retries a failure', () => {
    for (const schedule of schedules) {
      const n = schedule.delaysMs.length;
      expect(decideWithSchedule(schedule, n, 'retry', () => 0)).toEqual({
        retryInMs: schedule.delaysMs[n - 1],
      });
      expect(decideWithSchedule(schedule, n + 1, 'retry')).toEqual({ state: 'exhausted' });
      expect(decideWithSchedule(schedule, 1, 'failed')).toEqual({ state: 'failed' });
      expect(decideWithSchedule(schedule, 1, 'succeeded')).toEqual({ state: 'succeeded' });
    }
  });
});

describe('Retry-After', () => {
  const custom = parsed('10s, 2h');

  it('waits longer when asked, never earlier than the schedule, at most an hour unless the schedule waits longer', () => {
    expect(scheduleDelay(custom, 1, () => 0, 30_000)).toBe(30_000);
    expect(scheduleDelay(custom, 1, () => 0, 2_000)).toBe(10_000);
    expect(scheduleDelay(custom, 1, () => 0, 5 * RETRY_AFTER_MAX_MS)).toBe(RETRY_AFTER_MAX_MS);
    expect(scheduleDelay(custom, 2, () => 0, 5 * RETRY_AFTER_MAX_MS)).toBe(2 * 3_600_000);
    expect(retryWindow(custom, 1, 30_000)).toEqual([30_000, 33_000]);
  });

  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:27:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:26:00 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
