import { expect, it } from 'vitest';
import {
  CompanyWaits,
  expectedCompany,
  LONELY_WAITS,
  PROBE_EVERY,
  RECENT_WAITS,
  waitsForCompany,
} from './company-waits.js';

it('waitsForCompany: waits stop after LONELY_WAITS lonely ones in a row, but for one group in PROBE_EVERY', () => {
  expect(waitsForCompany(0, 0)).toBe(true);
  expect(waitsForCompany(LONELY_WAITS - 1, 0)).toBe(true);
  expect(waitsForCompany(LONELY_WAITS, 0)).toBe(false);
  expect(waitsForCompany(LONELY_WAITS, PROBE_EVERY - 2)).toBe(false);
  expect(waitsForCompany(LONELY_WAITS, PROBE_EVERY - 1)).toBe(true); // the probe
  expect(waitsForCompany(LONELY_WAITS + 5, PROBE_EVERY - 1)).toBe(true);
});

it('expectedCompany: the largest recent full wait, none when waits gathered nothing or none ran', () => {
  expect(expectedCompany([4, 4, 3, 4])).toBe(4);
  expect(expectedCompany([2, 6, 3])).toBe(6);
  expect(expectedCompany([1, 1, 1])).toBe(Number.POSITIVE_INFINITY);
  expect(expectedCompany([])).toBe(Number.POSITIVE_INFINITY);
});

/** Runs one wait that ran its full length with `size` items (after `start()` said it waits). */
function fullWait(waits: CompanyWaits, size: number): void {
  expect(waits.start()).toBe(true);
  for (let n = 2; n <= size; n++) expect(waits.joined(n)).toBe(false);
  waits.ended(size);
}

it('CompanyWaits: a wait ends at the company full waits found, but one wait in PROBE_EVERY runs its length', () => {
  const waits = new CompanyWaits();
  fullWait(waits, 4); // the first wait: learns 4
  const endedEarly: number[] = [];
  for (let wait = 2; wait < PROBE_EVERY; wait++) {
    expect(waits.start()).toBe(true);
    expect(waits.joined(2)).toBe(false);
    expect(waits.joined(3)).toBe(false);
    if (waits.joined(4)) endedEarly.push(wait); // learns nothing
  }
  expect(endedEarly).toHaveLength(PROBE_EVERY - 2); // every wait but the first
  // The 32nd wait is a probe: it does not end at 4, runs its length and finds 6.
  expect(waits.start()).toBe(true);
  expect(waits.joined(4)).toBe(false);
  expect(waits.joined(5)).toBe(false);
  waits.ended(6);
  // A wait now ends at 6, not 4.
  expect(waits.start()).toBe(true);
  expect(waits.joined(4)).toBe(false);
  expect(waits.joined(6)).toBe(true);
});

it('CompanyWaits: what it expects follows the last RECENT_WAITS full waits down', () => {
  const waits = new CompanyWaits();
  fullWait(waits, 8);
  for (let i = 0; i < RECENT_WAITS - 1; i++) fullWait(waits, 3);
  expect(waits.start()).toBe(true);
  expect(waits.joined(3)).toBe(false); // 8 is still among the last RECENT_WAITS
  waits.ended(3);
  expect(waits.start()).toBe(true);
  expect(waits.joined(3)).toBe(true); // 8 has rolled out
});

it('CompanyWaits: after LONELY_WAITS lonely waits, groups stop waiting until a probe finds company', () => {
  const waits = new CompanyWaits();
  for (let i = 0; i < LONELY_WAITS; i++) fullWait(waits, 1);
  for (let i = 0; i < PROBE_EVERY - 1; i++) expect(waits.start()).toBe(false);
  fullWait(waits, 3); // the probe finds company
  expect(waits.start()).toBe(true); // waits again
  waits.ended(2);
  // A group cut short at maxBatch found company too, and tells nothing of a full wait's size.
  for (let i = 0; i < LONELY_WAITS; i++) fullWait(waits, 1);
  for (let i = 0; i < PROBE_EVERY - 1; i++) expect(waits.start()).toBe(false);
  expect(waits.start()).toBe(true);
  waits.filled();
  expect(waits.start()).toBe(true);
});
