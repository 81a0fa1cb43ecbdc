import { describe, expect, it } from 'vitest';
import { createMemoryDedupeStore } from './dedupe.js';

describe('createMemoryDedupeStore', () => {
  it('remembers ids until the TTL passes', () => {
    let now = 0;
    const store = createMemoryDedupeStore({ ttlMs: 1000, now: () => now });
    store.add('a');
    now = 999;
    expect(store.has('a')).toBe(true);
    expect(store.has('b')).toBe(false);
    now = 1000;
    expect(store.has('a')).toBe(false);
    expect(store.size).toBe(0);
  });

  it('forgets the oldest ids beyond maxEntries', () => {
    const store = createMemoryDedupeStore({ maxEntries: 2 });
    store.add('a');
    store.add('b');
    store.add('c');
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([false, true, true]);
    expect(store.size).toBe(2);
  });

  it('refreshes an id added again', () => {
    let now = 0;
    const store = createMemoryDedupeStore({ ttlMs: 100, now: () => now });
    store.add('a');
    now = 50;
    store.add('b');
    store.add('a');
    now = 120;
    expect(store.has('a')).toBe(true);
    expect(store.has('b')).toBe(true);
    now = 150;
    expect(store.has('b')).toBe(false);
  });

  it('refuses nonsense limits', () => {
    expect(() => createMemoryDedupeStore({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => createMemoryDedupeStore({ ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
