import { expect, it } from 'vitest';
import { newId, newSortableId } from './ids.js';

it('newId: prefix and 128 random bits in base64url, never repeated', () => {
  const ids = Array.from({ length: 5000 }, () => newId('inst'));
  for (const id of ids) expect(id).toMatch(/^inst_[A-Za-z0-9_-]{22}$/);
  expect(new Set(ids).size).toBe(ids.length);
});

it('newSortableId: ordered by creation time as plain strings, unique within one millisecond', () => {
  const times = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 2 ** 45 - 1];
  const ids = times.map((t) => newSortableId('dlv', t));
  for (const id of ids) expect(id).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{9}[A-Za-z0-9_-]{22}$/);
  expect([...ids].sort()).toEqual(ids); // string order = time order
  // The time part, computed another way: radix-32 digits mapped to Crockford's alphabet.
  const crockford = (t: number) =>
    t
      .toString(32)
      .padStart(9, '0')
      .split('')
      .map((digit) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number.parseInt(digit, 32)])
      .join('');
  expect(newSortableId('evt', 1_700_000_000_000).slice(4, 13)).toBe(crockford(1_700_000_000_000));
  expect(crockford(1_700_000_000_000)).toBe('1HF7YAT00');
  const sameMs = Array.from({ length: 5000 }, () => newSortableId('evt', 1_700_000_000_000));
  expect(new Set(sameMs).size).toBe(sameMs.length);
});
