import { describe, expect, it } from 'vitest';
import { RenderCache } from './cache.js';

describe('RenderCache', () => {
  it('keeps an answer for maxAge seconds of the injected clock, never for renders with an action', () => {
    let now = 1_000;
    const cache = new RenderCache(() => now, 2);
    const key = RenderCache.keyOf('inst_1', 'hash', { componentId: 'c', props: { a: 1 } });
    cache.set(key, { element: 1 }, 10);
    now += 9_999;
    expect(cache.get(key)).toEqual({ element: 1 });
    now += 1;
    expect(cache.get(key)).toBeUndefined();
    expect(
      RenderCache.keyOf('inst_1', 'hash', { componentId: 'c', action: { action: 'x' } }),
    ).toBeUndefined();
    expect(RenderCache.keyOf('inst_1', 'other-bundle', { componentId: 'c', props: { a: 1 } })).not.toBe(key);
  });

  it('drops the oldest entry beyond its capacity and ignores answers without a hint', () => {
    const cache = new RenderCache(() => 0, 2);
    for (const id of ['a', 'b', 'c']) cache.set(id, id, 60);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'b', 'c']);
    cache.set('d', 'd', undefined);
    expect(cache.get('d')).toBeUndefined();
  });
});
