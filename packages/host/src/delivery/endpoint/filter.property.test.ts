import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FILTER_LIMITS,
  type Filter,
  type FilterScalar,
  filterSchema,
  matchesFilter,
  passesFilter,
} from './filter.js';

const names = fc.constantFrom('rating', 'type', 'page', 'path', 'score', 'a', 'b');
const fieldPath = fc.array(names, { minLength: 1, maxLength: 3 }).map((p) => p.join('.'));
const scalar: fc.Arbitrary<FilterScalar> = fc.oneof(
  fc.constantFrom('bad', 'good', '/docs', ''),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.boolean(),
  fc.constant(null),
);

/** Valid filters within the limits (depth 3 keeps the node count under 64). */
const filterArb: fc.Arbitrary<Filter> = fc
  .letrec<{ filter: Filter }>((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ field: fieldPath, equals: scalar }),
      fc.record({ field: fieldPath, in: fc.array(scalar, { minLength: 1, maxLength: 5 }) }),
      fc.record({ field: fieldPath, exists: fc.boolean() }),
      fc.record({ field: fieldPath, prefix: fc.constantFrom('', '/', '/do', 'b') }),
      fc.record({ field: fieldPath, gt: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ field: fieldPath, gte: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ field: fieldPath, lt: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ field: fieldPath, lte: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ and: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('filter') }),
    ),
  }))
  .filter.filter((f) => nodes(f) <= FILTER_LIMITS.maxNodes && depth(f) <= FILTER_LIMITS.maxDepth);

function nodes(f: Filter): number {
  if ('and' in f) return 1 + f.and.reduce((n, c) => n + nodes(c), 0);
  if ('or' in f) return 1 + f.or.reduce((n, c) => n + nodes(c), 0);
  if ('not' in f) return 1 + nodes(f.not);
  return 1;
}
function depth(f: Filter): number {
  if ('and' in f) return 1 + Math.max(...f.and.map(depth));
  if ('or' in f) return 1 + Math.max(...f.or.map(depth));
  if ('not' in f) return 1 + depth(f.not);
  return 0;
}

/** Payloads shaped like webhook bodies, with the filters' field names, and any JSON at all. */
const payloadArb = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('page_feedback', 'site_view'),
      rating: scalar,
      score: fc.oneof(fc.integer({ min: -6, max: 6 }), fc.constant('3')),
      page: fc.record({ path: fc.constantFrom('/docs/a', '/blog', 'x'), a: scalar }, { requiredKeys: [] }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.jsonValue(),
);

describe('payload filters (fast-check)', () => {
  it('every generated filter validates, and evaluates on any payload without throwing', () => {
    fc.assert(
      fc.property(filterArb, payloadArb, (filter, payload) => {
        expect(filterSchema.safeParse(filter).success).toBe(true);
        expect(typeof matchesFilter(filter, payload)).toBe('boolean');
      }),
    );
  });

  it('not, and, or mean what they say', () => {
    fc.assert(
      fc.property(filterArb, filterArb, payloadArb, (a, b, p) => {
        expect(matchesFilter({ not: a }, p)).toBe(!matchesFilter(a, p));
        expect(matchesFilter({ and: [a, b] }, p)).toBe(matchesFilter(a, p) && matchesFilter(b, p));
        expect(matchesFilter({ or: [a, b] }, p)).toBe(matchesFilter(a, p) || matchesFilter(b, p));
        expect(matchesFilter({ not: { not: a } }, p)).toBe(matchesFilter(a, p));
      }),
    );
  });

  it('in one value is equals; gte is gt or equals; lt is not gte for numbers; exists false is not exists true', () => {
    fc.assert(
      fc.property(fieldPath, scalar, fc.integer({ min: -5, max: 5 }), payloadArb, (field, v, n, p) => {
        expect(matchesFilter({ field, in: [v] }, p)).toBe(matchesFilter({ field, equals: v }, p));
        expect(matchesFilter({ field, gte: n }, p)).toBe(
          matchesFilter({ field, gt: n }, p) || matchesFilter({ field, equals: n }, p),
        );
        const isNumber = matchesFilter(
          {
            or: [
              { field, gte: n },
              { field, lt: n },
            ],
          },
          p,
        );
        if (isNumber) expect(matchesFilter({ field, lt: n }, p)).toBe(!matchesFilter({ field, gte: n }, p));
        expect(matchesFilter({ field, exists: false }, p)).toBe(!matchesFilter({ field, exists: true }, p));
      }),
    );
  });

  it('any JSON either validates or is refused with issues that name a path; never a throw', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const result = filterSchema.safeParse(value);
        if (!result.success) {
          for (const issue of result.error.issues) expect(issue.message.length).toBeGreaterThan(0);
        } else {
          expect(typeof matchesFilter(result.data, {})).toBe('boolean');
        }
      }),
    );
  });

  it('refuses what passes the limits, naming where', () => {
    let deep: unknown = { field: 'a', exists: true };
    for (let i = 0; i < FILTER_LIMITS.maxDepth + 1; i++) deep = { not: deep };
    expect(filterSchema.safeParse(deep).error?.issues[0]?.message).toContain('nest at most 8');
    const wide = { or: Array.from({ length: 70 }, () => ({ field: 'a', exists: true })) };
    expect(filterSchema.safeParse(wide).error?.issues[0]?.message).toContain('at most 64');
    const many = { field: 'a', in: Array.from({ length: 101 }, (_, i) => i) };
    expect(filterSchema.safeParse(many).error?.issues[0]?.path).toEqual(['in']);
    const wrong = filterSchema.safeParse({
      and: [
        { field: 'rating', equals: 'bad' },
        { field: 'score', gt: 'x' },
      ],
    });
    expect(wrong.error?.issues).toMatchObject([
      { path: ['and', 1, 'gt'], message: 'gt compares with a number' },
    ]);
    expect(
      filterSchema.safeParse({ field: 'a', equals: 1, prefix: 'x' }).error?.issues[0]?.message,
    ).toContain('exactly one');
    expect(filterSchema.safeParse({ field: 'a b', exists: true }).error?.issues[0]?.path).toEqual(['field']);
  });

  it('passesFilter: no filter lets everything through; a filter is parsed once per configuration object', () => {
    expect(passesFilter({ url: 'x' }, { rating: 'good' })).toBe(true);
    const configuration = { filter: { field: 'rating', equals: 'bad' } };
    expect(passesFilter(configuration, { rating: 'good' })).toBe(false);
    expect(passesFilter(configuration, { rating: 'bad' })).toBe(true);
  });
});
