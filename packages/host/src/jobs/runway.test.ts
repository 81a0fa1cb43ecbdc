import { describe, expect, it } from 'vitest';
import { Runway } from './runway.js';

describe('Runway', () => {
  it('hands out waiting jobs oldest first, at most `max` at a time', () => {
    const runway = new Runway<string>(8, 1_000);
    runway.push(['a', 'b'], 0);
    runway.push(['c'], 10);
    expect(runway.length).toBe(3);
    expect(runway.take(2, 20)).toEqual({ run: ['a', 'b'], stale: [] });
    expect(runway.take(0, 20)).toEqual({ run: [], stale: [] });
    expect(runway.length).toBe(1);
    expect(runway.take(5, 20)).toEqual({ run: ['c'], stale: [] });
    expect(runway.length).toBe(0);
  });

  it('gives back every job that waited longer than waitMs, even when no slot is free', () => {
    const runway = new Runway<string>(8, 1_000);
    runway.push(['old1', 'old2'], 0);
    runway.push(['new'], 900);
    // 1 000 ms is still in time; 1 001 is not.
    expect(runway.take(0, 1_000)).toEqual({ run: [], stale: [] });
    expect(runway.take(0, 1_001)).toEqual({ run: [], stale: ['old1', 'old2'] });
    expect(runway.take(1, 1_001)).toEqual({ run: ['new'], stale: [] });
  });

  it('drain empties it, in order; order survives many pushes and takes', () => {
    const runway = new Runway<number>(8, 1e9);
    const out: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      runway.push([i], i);
      if (i % 3 === 2) out.push(...runway.take(2, i).run);
    }
    const rest = runway.drain();
    expect(runway.length).toBe(0);
    expect([...out, ...rest]).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
    expect(runway.take(4, 0)).toEqual({ run: [], stale: [] });
  });

  it('refuses a room that is not a whole number or a wait that is not positive; a room of 0 is allowed', () => {
    expect(() => new Runway(-1, 1_000)).toThrow(/room must be a whole number \(0 or more\), got -1/);
    expect(() => new Runway(1.5, 1_000)).toThrow(/room/);
    expect(new Runway(0, 1_000).room).toBe(0);
    expect(() => new Runway(4, 0)).toThrow(/waitMs must be positive, got 0/);
  });
});
