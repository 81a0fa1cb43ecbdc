import { describe, expect, it } from 'vitest';
import { arrivalSlackMs, DRAWN_SHARE, decide, MAX_RETRIES, nextAttemptDelay } from './policy.js';

describe('arrivalSlackMs', () => {
  it("is what each window leaves after the latest due time: its end minus the drawn share's end", () => {
    for (const retry of [1, 2, 3]) {
      const windowEnd = 1000 * 2 ** (retry - 1) * 1.1;
      expect(arrivalSlackMs(retry)).toBe(windowEnd - nextAttemptDelay(retry, () => 1));
    }
    expect([1, 2, 3].map(arrivalSlackMs)).toEqual([50, 100, 200]);
    expect(() => arrivalSlackMs(0)).toThrow(RangeError);
  });
});

describe('nextAttemptDelay', () => {
  it.each([
    [1, 0, 1000],
    [1, 0.5, 1025],
    [1, 1, 1050],
    [2, 0, 2000],
    [2, 1, 2100],
    [3, 0, 4000],
    [3, 0.5, 4100],
    [3, 1, 4200],
  ])('retry %i with rng %d -> %d ms', (retry, draw, expected) => {
    expect(nextAttemptDelay(retry, () => draw)).toBeCloseTo(expected, 3);
  });

  it('stays inside the first half of the retry windows with Math.random: the rest is left to arrive', () => {
    const windows: Array<[number, number]> = [
      [1000, 1000 + 100 * DRAWN_SHARE],
      [2000, 2000 + 200 * DRAWN_SHARE],
      [4000, 4000 + 400 * DRAWN_SHARE],
    ];
    for (let i = 0; i < 1000; i++) {
      windows.forEach(([low, high], index) => {
        const delay = nextAttemptDelay(index + 1);
        expect(delay).toBeGreaterThanOrEqual(low);
        expect(delay).toBeLessThanOrEqual(high);
      });
    }
  });

  it('clamps a misbehaving rng into the window', () => {
    expect(nextAttemptDelay(1, () => 7)).toBe(1050);
    expect(nextAttemptDelay(1, () => -1)).toBe(1000);
    expect(nextAttemptDelay(1, () => Number.NaN)).toBe(1000);
  });

  it.each([0, 4, 1.5, -1])('rejects retry %d', (retry) => {
    expect(() => nextAttemptDelay(retry)).toThrow(RangeError);
  });
});

describe('decide', () => {
  it('retries 3 times with growing delays, then is exhausted', () => {
    expect(MAX_RETRIES).toBe(3);
    const rng = () => 0.5;
    expect(decide(1, 'retry', rng)).toEqual({ retryInMs: 1025 });
    expect(decide(2, 'retry', rng)).toEqual({ retryInMs: 2050 });
    expect(decide(3, 'retry', rng)).toEqual({ retryInMs: 4100 });
    expect(decide(4, 'retry', rng)).toEqual({ state: 'exhausted' });
  });

  it('stops at once on success or a non-retryable failure, whatever the attempt', () => {
    for (const attempt of [1, 2, 3, 4]) {
      expect(decide(attempt, 'succeeded')).toEqual({ state: 'succeeded' });
      expect(decide(attempt, 'failed')).toEqual({ state: 'failed' });
    }
  });

  it('a full series of retryable failures makes exactly 4 attempts', () => {
    let attempts = 0;
    let decision = decide(++attempts, 'retry');
    while ('retryInMs' in decision) decision = decide(++attempts, 'retry');
    expect(attempts).toBe(4);
    expect(decision).toEqual({ state: 'exhausted' });
  });
});
