import { describe, expect, it } from 'vitest';
import { createMemoryDedupeStore } from './dedupe.js';

/** A store keeping ids `ttlMs`, on a clock the test sets with `at(ms)` (it starts at 0). */
function storeOnClock(ttlMs: number) {
  let now = 0;
  const store = createMemoryDedupeStore({ ttlMs, now: () => now });
  return {
    store,
    at(ms: number) {
      now = ms;
    },
  };
}

/** Whether `store` still has each of `ids`. */
function kept(store: { has(id: string): boolean }, ...ids: string[]): boolean[] {
  return ids.map((id) => store.has(id));
}

describe('createMemoryDedupeStore', () => {
  it('remembers ids until the TTL passes', () => {
    const { store, at } = storeOnClock(1000);
    store.add('a');
    at(999);
    expect(kept(store, 'a', 'b')).toEqual([true, false]);
    at(1000);
    expect(store.has('a')).toBe(false);
    expect(store.size).toBe(0);
  });

  it('forgets the oldest ids beyond maxEntries', () => {
    const store = createMemoryDedupeStore({ maxEntries: 2 });
    store.add('a');
    store.add('b');
    store.add('c');
    expect(kept(store, 'a', 'b', 'c')).toEqual([false, true, true]);
    expect(store.size).toBe(2);
  });

  it('refreshes an id added again', () => {
    const { store, at } = storeOnClock(100);
    store.add('a');
    at(50);
    store.add('b');
    store.add('a');
    at(120);
    expect(kept(store, 'a', 'b')).toEqual([true, true]);
    at(150);
    expect(store.has('b')).toBe(false);
  });

  it('refuses nonsense limits', () => {
    expect(() => createMemoryDedupeStore({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => createMemoryDedupeStore({ ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
