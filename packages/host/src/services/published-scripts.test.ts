import { describe, expect, it } from 'vitest';
import { PublishedScriptCache } from './published-scripts.js';

const script = (size: number, ttl: number) => async () => ({
  body: new Uint8Array(size),
  cacheControl: 'public, max-age=60',
  etag: '"e"',
  ttl,
});

describe('PublishedScriptCache', () => {
  it('keeps a script for its ttl on the injected clock, and shares one load between concurrent asks', async () => {
    let now = 0;
    let loads = 0;
    const cache = new PublishedScriptCache(() => now);
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return script(3, 60)();
    };
    await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(loads).toBe(1);
    now = 59_999;
    await cache.get('k', load);
    expect(loads).toBe(1);
    now = 60_000;
    await cache.get('k', load);
    expect(loads).toBe(2);
  });

  it('keeps nothing for ttl 0 nor after a failed load, and drops the oldest over its entry or byte bounds', async () => {
    const cache = new PublishedScriptCache(() => 0, { entries: 2, bytes: 10 });
    let loads = 0;
    const counted =
      (size: number, ttl = 60) =>
      async () => {
        loads++;
        return script(size, ttl)();
      };
    await cache.get('none', counted(1, 0));
    await cache.get('none', counted(1, 0));
    expect(loads).toBe(2);
    await expect(cache.get('bad', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await cache.get('bad', counted(1));
    expect(loads).toBe(3);
    await cache.get('a', counted(4));
    await cache.get('b', counted(7)); // bad, a, b: over 2 entries (bad goes), then over 10 bytes (a goes)
    loads = 0;
    await cache.get('b', counted(7));
    expect(loads).toBe(0);
    await cache.get('a', counted(4));
    expect(loads).toBe(1);
  });
});
