import { expect, it } from 'vitest';
import type { InstallationRoute } from '../storage/index.js';
import { RoutingCache } from './events.js';

const route = (id: string) => ({ installation: { id } }) as unknown as InstallationRoute;

it('keeps reads of one epoch; a read at another epoch drops the others and says so', () => {
  const cache = new RoutingCache();
  expect(cache.epoch).toBeNull();
  expect(cache.put('a', { epoch: 4, routes: [route('i1')] })).toBe(true);
  expect(cache.put('b', { epoch: 4, routes: [] })).toBe(true);
  expect(cache.epoch).toBe(4);
  expect(cache.get('a')).toEqual([route('i1')]);
  expect(cache.put('c', { epoch: 5, routes: [route('i2')] })).toBe(false);
  expect(cache.epoch).toBe(5);
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('c')).toEqual([route('i2')]);
  // A scope that reaches nothing whatever changes is neither kept nor a change of epoch.
  expect(cache.put('d', { epoch: null, routes: [] })).toBe(true);
  expect(cache.get('d')).toBeUndefined();
  expect(cache.epoch).toBe(5);
  cache.reset(9);
  expect(cache.epoch).toBe(9);
  expect(cache.get('c')).toBeUndefined();
});

it('drops the oldest scope past its size', () => {
  const cache = new RoutingCache(2);
  cache.put('a', { epoch: 1, routes: [] });
  cache.put('b', { epoch: 1, routes: [] });
  cache.put('a', { epoch: 1, routes: [route('again')] }); // a known scope: nothing dropped
  expect(cache.get('b')).toEqual([]);
  cache.put('c', { epoch: 1, routes: [] });
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('b')).toEqual([]);
  expect(cache.get('c')).toEqual([]);
});
