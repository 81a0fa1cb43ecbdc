import { describe, expect, it } from 'vitest';
import { type AttemptFact, addFigures, emptyFigures, HOST_WIDE, outcomeOf, summarize } from './figures.js';
import { bucketOf, decode, encode, merge, percentile, record, total } from './histogram.js';
import { toBucket } from './series.js';

describe('histogram', () => {
  it('keeps each value in a bucket of four per doubling, exact below 8 ms, within 9 % above', () => {
    expect([0, 0.5, 1, 2, 3, 4, 7].map(bucketOf)).toEqual([0, 0, 1, 5, 7, 9, 12]);
    for (const ms of [0, 1, 2, 3, 4, 5, 6, 7]) {
      const h: number[] = [];
      record(h, ms);
      expect(percentile(h, 0.5)).toBe(ms);
    }
    for (const ms of [9, 13, 55, 140, 999, 1234, 30_000, 3_600_000]) {
      const h: number[] = [];
      record(h, ms);
      const p = percentile(h, 0.5) ?? 0;
      expect(Math.abs(p - ms) / ms, String(ms)).toBeLessThan(0.09);
    }
  });

  it('reads percentiles by rank, adds up exactly, and stores without trailing zeros', () => {
    const h: number[] = [];
    for (let ms = 1; ms <= 100; ms += 1) record(h, ms);
    expect(total(h)).toBe(100);
    expect(percentile(h, 0.5)).toBeGreaterThan(46);
    expect(percentile(h, 0.5)).toBeLessThan(55);
    expect(percentile(h, 0.99)).toBeGreaterThan(90);
    expect(percentile([], 0.5)).toBeNull();
    expect(merge([1, 0, 2], [0, 1, 0, 0])).toEqual([1, 1, 2, 0]);
    expect(encode([1, 0, 2, 0, 0])).toBe('[1,0,2]');
    expect(decode(encode(h))).toEqual(h.slice(0, h.length));
    expect(decode('not json')).toEqual([]);
    expect(decode('{"a":1}')).toEqual([]);
  });
});

describe('figures', () => {
  const fact = (over: Partial<AttemptFact>): AttemptFact => ({
    installationId: 'i1',
    series: 1,
    number: 1,
    startedAt: 1_000,
    durationMs: 10,
    statusCode: 200,
    errorCode: null,
    createdAt: 990,
    ...over,
  });

  it('classifies attempts by the delivery policy: 2xx, retried, final (failed or exhausted)', () => {
    expect(outcomeOf(fact({ statusCode: 204 }))).toBe('succeeded');
    expect(outcomeOf(fact({ statusCode: 503 }))).toBe('retried');
    expect(outcomeOf(fact({ statusCode: 429, number: 3 }))).toBe('retried');
    expect(outcomeOf(fact({ statusCode: 503, number: 4 }))).toBe('failed');
    expect(outcomeOf(fact({ statusCode: 404 }))).toBe('failed');
    expect(outcomeOf(fact({ statusCode: null, errorCode: 'timeout' }))).toBe('retried');
    expect(outcomeOf(fact({ statusCode: null, errorCode: 'target_blocked' }))).toBe('failed');
    // a broker destination's acknowledgement: neither a status nor an error
    expect(outcomeOf(fact({ statusCode: null, errorCode: null }))).toBe('succeeded');
    expect(outcomeOf(fact({ statusCode: null, errorCode: 'broker_unavailable' }))).toBe('retried');
    expect(outcomeOf(fact({ statusCode: null, errorCode: 'broker_rejected' }))).toBe('failed');
  });

  it('sums per installation and host-wide; only a first attempt of the first series counts as accepted → first', () => {
    const byInstallation = summarize([
      fact({}),
      fact({ installationId: 'i2', statusCode: 500, createdAt: 900 }),
      fact({ installationId: 'i2', number: 2, statusCode: 200 }),
      fact({ series: 2, number: 1 }),
    ]);
    expect(byInstallation.get(HOST_WIDE)).toMatchObject({ attempts: 4, succeeded: 3, retried: 1, failed: 0 });
    expect(byInstallation.get('i2')).toMatchObject({ attempts: 2, succeeded: 1, retried: 1 });
    expect(total(byInstallation.get(HOST_WIDE)?.firstAttempt ?? [])).toBe(2);
    expect(percentile(byInstallation.get('i2')?.firstAttempt ?? [], 0.5)).toBeGreaterThan(92);
    const hour = addFigures(addFigures(emptyFigures(), byInstallation.get('i1')!), byInstallation.get('i2')!);
    expect(hour.attempts).toBe(4);
    expect(toBucket(0, hour)).toMatchObject({
      successRate: 0.75,
      backlog: null,
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(toBucket(0, emptyFigures())).toMatchObject({ successRate: null, duration: { p50: null } });
  });

  it('an hour keeps the largest backlog sample of its minutes', () => {
    const a = { ...emptyFigures(), backlogQueued: 5, backlogDue: 1 };
    const b = { ...emptyFigures(), backlogQueued: 3, backlogDue: 2 };
    expect(addFigures(addFigures(emptyFigures(), a), b)).toMatchObject({ backlogQueued: 5, backlogDue: 2 });
  });
});
