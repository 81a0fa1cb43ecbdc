import { describe, expect, it } from 'vitest';
import { isStorageError } from './errors.js';
import { Mutex } from './mutex.js';
import { normalizeParams, placeholders, toDollarParams } from './sql.js';

describe('toDollarParams', () => {
  it('numbers the placeholders and leaves quoted text alone', () => {
    expect(toDollarParams(`SELECT * FROM t WHERE a = ? AND b = '?' AND "c?" = ? AND d IN (?, ?)`)).toBe(
      `SELECT * FROM t WHERE a = $1 AND b = '?' AND "c?" = $2 AND d IN ($3, $4)`,
    );
  });
});

describe('normalizeParams', () => {
  it('maps booleans to 0/1 and undefined to null, refuses other types', () => {
    expect(normalizeParams([true, false, undefined, null, 'x', 15, -0])).toEqual([
      1,
      0,
      null,
      null,
      'x',
      15,
      0,
    ]);
    expect(normalizeParams(undefined)).toEqual([]);
    let error: unknown;
    try {
      normalizeParams([{} as unknown as string]);
    } catch (e) {
      error = e;
    }
    expect(isStorageError(error, 'invalid')).toBe(true);
  });

  it('refuses numbers one dialect would store and the other refuse: fractions, NaN, infinities, beyond 2^53', () => {
    for (const value of [
      1795473071782.3772,
      0.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -(2 ** 53),
      2 ** 53,
    ]) {
      let error: unknown;
      try {
        normalizeParams(['x', value]);
      } catch (e) {
        error = e;
      }
      expect(isStorageError(error, 'invalid'), String(value)).toBe(true);
      expect((error as Error).message).toContain(`SQL parameter #2 is ${value}`);
    }
    expect(normalizeParams([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])).toEqual([
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ]);
  });

  it('placeholders builds IN lists and refuses empty ones', () => {
    expect(placeholders(3)).toBe('?, ?, ?');
    expect(() => placeholders(0)).toThrow(/at least one/);
  });
});

describe('Mutex', () => {
  it('runs callers one at a time in order, even when one fails', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const task = (name: string, ms: number, fail = false) =>
      mutex.run(async () => {
        log.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name}:end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([task('a', 20), task('b', 1, true), task('c', 1)]);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
