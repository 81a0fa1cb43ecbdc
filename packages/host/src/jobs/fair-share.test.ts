import { describe, expect, it } from 'vitest';
import { FairShare, type FairShareOptions } from './fair-share.js';

/** A FairShare on a hand-driven clock, recording what it tells `onSlow`. */
function share(overrides: Partial<FairShareOptions> = {}) {
  const clock = { now: 1_000 };
  const flags: Array<[string, boolean]> = [];
  const fair = new FairShare({
    limit: 2,
    slowMs: 500,
    slowForMs: 10_000,
    maxLingering: 3,
    now: () => clock.now,
    onSlow: (key, slow) => flags.push([key, slow]),
    ...overrides,
  });
  return { fair, clock, flags };
}

describe('FairShare', () => {
  it('does not limit a key whose attempts end quickly', () => {
    const { fair, flags } = share();
    for (let i = 0; i < 10; i++) {
      expect(fair.admits('fast')).toBe(true);
      fair.started('fast');
    }
    expect(fair.allowances()).toEqual(new Map());
    for (let i = 0; i < 10; i++) expect(fair.ended('fast', false)).toBe(false);
    expect(flags).toEqual([]);
  });

  it('a lingering attempt makes its key slow: at most `limit` in flight, allowances say what is left', () => {
    const { fair, flags } = share();
    fair.started('dead');
    fair.started('dead');
    fair.started('dead'); // before anything was known: not limited
    expect(fair.lingered('dead')).toBe(true);
    expect(flags).toEqual([['dead', true]]);
    expect(fair.isSlow('dead')).toBe(true);
    expect(fair.admits('dead')).toBe(false); // 3 in flight, limit 2
    expect(fair.allowances()).toEqual(new Map([['dead', 0]]));
    expect(fair.saturated()).toEqual(['dead']);
    expect(fair.admits('other')).toBe(true);
    expect(fair.lingered('dead')).toBe(true); // a second one: slow for slowForMs, not only while they linger
    expect(fair.ended('dead', true)).toBe(true); // slow: its held jobs may go now... once under its limit
    expect(fair.admits('dead')).toBe(false); // 2 in flight
    expect(fair.ended('dead', true)).toBe(true);
    expect(fair.admits('dead')).toBe(true); // 1 in flight
    expect(fair.allowances()).toEqual(new Map([['dead', 1]]));
    // Below its limit too: every ending job of a slow key asks for a look at its held jobs.
    expect(fair.ended('dead', false)).toBe(true);
    expect(fair.allowances()).toEqual(new Map([['dead', 2]]));
    expect(flags).toEqual([['dead', true]]);
  });

  it('one lingering attempt alone leaves no mark once it ends; a second within slowForMs does', () => {
    const { fair, clock, flags } = share();
    fair.started('k');
    expect(fair.lingered('k')).toBe(true);
    expect(fair.isSlow('k')).toBe(true); // while it lingers
    clock.now += 200;
    expect(fair.ended('k', true)).toBe(true); // it was slow: look at its held jobs now
    expect(fair.isSlow('k')).toBe(false);
    expect(fair.allowances()).toEqual(new Map());
    expect(flags).toEqual([
      ['k', true],
      ['k', false],
    ]);
    /** `ms` later (and after a sweep), one attempt of 'k' lingers and ends. */
    const lingerAfter = (ms: number) => {
      clock.now += ms;
      fair.sweep();
      fair.started('k');
      fair.lingered('k');
      fair.ended('k', true);
    };
    // Past the window, a lone lingering attempt is a first strike again.
    lingerAfter(10_000);
    expect(fair.isSlow('k')).toBe(false);
    // Within the window (even after a sweep), the second strike keeps the key slow for slowForMs.
    lingerAfter(9_000);
    expect(fair.isSlow('k')).toBe(true);
    clock.now += 9_999;
    expect(fair.isSlow('k')).toBe(true);
    clock.now += 1;
    expect(fair.isSlow('k')).toBe(false);
  });

  it('a key stays slow for slowForMs after its last lingering attempt, then is forgotten', () => {
    const { fair, clock, flags } = share();
    fair.started('k');
    fair.started('k');
    fair.lingered('k');
    clock.now += 100;
    fair.lingered('k');
    fair.ended('k', true);
    fair.ended('k', true);
    clock.now += 9_999;
    expect(fair.isSlow('k')).toBe(true);
    fair.sweep();
    expect(flags).toEqual([['k', true]]);
    expect(fair.flagged()).toEqual(['k']);
    clock.now += 1;
    expect(fair.isSlow('k')).toBe(false);
    expect(fair.admits('k')).toBe(true);
    fair.sweep();
    expect(flags).toEqual([
      ['k', true],
      ['k', false],
    ]);
    expect(fair.flagged()).toEqual([]);
    expect(fair.allowances()).toEqual(new Map());
  });

  it('at most maxLingering attempts give their slot back; the key is slow all the same', () => {
    const { fair } = share({ maxLingering: 2, limit: 5 });
    for (const key of ['a', 'a', 'b']) fair.started(key);
    expect(fair.lingered('a')).toBe(true);
    expect(fair.lingered('a')).toBe(true);
    expect(fair.lingered('b')).toBe(false);
    expect(fair.lingering).toBe(2);
    expect(fair.isSlow('b')).toBe(true);
    fair.ended('a', true);
    expect(fair.lingering).toBe(1);
    expect(fair.lingered('b')).toBe(true);
  });

  it('rejects a bad limit or threshold', () => {
    expect(() => share({ limit: 0 })).toThrow(/limit must be a positive integer/);
    expect(() => share({ slowMs: 0 })).toThrow(/slowMs must be positive/);
  });
});
