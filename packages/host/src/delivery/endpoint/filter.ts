import { z } from 'zod';

/** Limits that bound a filter's size, and so the cost of evaluating it on each event. */
export const FILTER_LIMITS = {
  /** Nesting of `and` / `or` / `not`. */
  maxDepth: 8,
  /** Conditions and combinators in all. */
  maxNodes: 64,
  /** Values of one `in`. */
  maxIn: 100,
  /** Segments of a `field` path. */
  maxPathSegments: 8,
  /** Characters of a `field` path, and of a string value. */
  maxText: 500,
} as const;

/** A JSON scalar a condition compares with. */
export type FilterScalar = string | number | boolean | null;

/**
 * A payload filter (docs/contracts.md "Endpoint settings"): a condition on one field of the event
 * (`field`: a dot path into the webhook body, e.g. `rating` or `page.path`), or a combination.
 */
export type Filter =
  | { field: string; equals: FilterScalar }
  | { field: string; in: FilterScalar[] }
  | { field: string; exists: boolean }
  | { field: string; prefix: string }
  | { field: string; gt: number }
  | { field: string; gte: number }
  | { field: string; lt: number }
  | { field: string; lte: number }
  | { and: Filter[] }
  | { or: Filter[] }
  | { not: Filter };

/** The operators of a condition on a field. */
export const FIELD_OPERATORS = ['equals', 'in', 'exists', 'prefix', 'gt', 'gte', 'lt', 'lte'] as const;
const COMBINATORS = ['and', 'or', 'not'] as const;
const SEGMENT = /^[A-Za-z0-9_$-]+$/;

type Path = Array<string | number>;
interface Issue {
  path: Path;
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is FilterScalar =>
  v === null ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  typeof v === 'string';

function checkText(value: string, path: Path, issues: Issue[]): void {
  if (value.length > FILTER_LIMITS.maxText)
    issues.push({ path, message: `at most ${FILTER_LIMITS.maxText} characters` });
}

function checkCondition(node: Record<string, unknown>, operator: string, path: Path, issues: Issue[]): void {
  const field = node.field;
  if (typeof field !== 'string' || field === '') {
    issues.push({
      path: [...path, 'field'],
      message: 'a condition names a payload field: "field": "rating" (a dot path)',
    });
  } else {
    const segments = field.split('.');
    if (segments.length > FILTER_LIMITS.maxPathSegments || field.length > FILTER_LIMITS.maxText)
      issues.push({
        path: [...path, 'field'],
        message: `at most ${FILTER_LIMITS.maxPathSegments} segments and ${FILTER_LIMITS.maxText} characters`,
      });
    else if (!segments.every((s) => SEGMENT.test(s)))
      issues.push({
        path: [...path, 'field'],
        message: `"${field}" is a dot path of names (letters, digits, _ $ -), e.g. "page.path"`,
      });
  }
  const value = node[operator];
  const at = [...path, operator];
  switch (operator) {
    case 'equals':
      if (!isScalar(value))
        issues.push({ path: at, message: 'equals compares with a string, a number, true, false or null' });
      else if (typeof value === 'string') checkText(value, at, issues);
      return;
    case 'in':
      if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_LIMITS.maxIn) {
        issues.push({ path: at, message: `in is a list of 1 to ${FILTER_LIMITS.maxIn} values` });
        return;
      }
      value.forEach((v, i) => {
        if (!isScalar(v))
          issues.push({ path: [...at, i], message: 'a string, a number, true, false or null' });
        else if (typeof v === 'string') checkText(v, [...at, i], issues);
      });
      return;
    case 'exists':
      if (typeof value !== 'boolean') issues.push({ path: at, message: 'exists is true or false' });
      return;
    case 'prefix':
      if (typeof value !== 'string') issues.push({ path: at, message: 'prefix is a string' });
      else checkText(value, at, issues);
      return;
    default:
      if (typeof value !== 'number' || !Number.isFinite(value))
        issues.push({ path: at, message: `${operator} compares with a number` });
  }
}

function checkNode(
  node: unknown,
  path: Path,
  depth: number,
  budget: { nodes: number },
  issues: Issue[],
): void {
  budget.nodes++;
  if (budget.nodes > FILTER_LIMITS.maxNodes) {
    if (budget.nodes === FILTER_LIMITS.maxNodes + 1)
      issues.push({
        path,
        message: `a filter has at most ${FILTER_LIMITS.maxNodes} conditions and combinations`,
      });
    return;
  }
  if (!isRecord(node)) {
    issues.push({
      path,
      message:
        'a filter is an object: {"field": ..., "equals": ...}, {"and": [...]}, {"or": [...]} or {"not": ...}',
    });
    return;
  }
  const keys = Object.keys(node);
  const combinator = COMBINATORS.filter((k) => k in node);
  const operators = FIELD_OPERATORS.filter((k) => k in node);
  const known = new Set<string>([...COMBINATORS, ...FIELD_OPERATORS, 'field']);
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0) {
    issues.push({
      path: [...path, unknown[0]!],
      message: `unknown key; a filter uses field with one of ${FIELD_OPERATORS.join(', ')}, or one of and, or, not`,
    });
    return;
  }
  if (combinator.length + operators.length !== 1 || (combinator.length === 1 && 'field' in node)) {
    issues.push({
      path,
      message: `exactly one of ${[...FIELD_OPERATORS, ...COMBINATORS].join(', ')} per object (combine with and/or)`,
    });
    return;
  }
  const [op] = combinator;
  if (op === undefined) {
    checkCondition(node, operators[0]!, path, issues);
    return;
  }
  if (depth >= FILTER_LIMITS.maxDepth) {
    issues.push({ path, message: `filters nest at most ${FILTER_LIMITS.maxDepth} deep` });
    return;
  }
  if (op === 'not') {
    checkNode(node.not, [...path, 'not'], depth + 1, budget, issues);
    return;
  }
  const list = node[op];
  if (!Array.isArray(list) || list.length === 0) {
    issues.push({ path: [...path, op], message: `${op} is a non-empty list of filters` });
    return;
  }
  for (const [i, child] of list.entries()) checkNode(child, [...path, op, i], depth + 1, budget, issues);
}

/**
 * The filter setting's schema: a {@link Filter} within {@link FILTER_LIMITS}; each issue's path is the
 * wrong value's (`and[1].gt`), its message what is expected there.
 *
 * @example
 * filterSchema.safeParse({ and: [{ field: 'rating', equals: 'bad' }, { field: 'score', gt: 'x' }] });
 * // issue at ['and', 1, 'gt']: 'gt compares with a number'
 */
export const filterSchema: z.ZodType<Filter> = z.unknown().superRefine((value, ctx) => {
  const issues: Issue[] = [];
  checkNode(value, [], 0, { nodes: 0 }, issues);
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}) as unknown as z.ZodType<Filter>;

/** The value at a dot path of the payload (undefined when a segment is missing). */
function valueAt(payload: unknown, field: string): unknown {
  let current = payload;
  for (const segment of field.split('.')) {
    if (!isRecord(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * Whether the event's payload matches a filter (validated by {@link filterSchema}). Pure; its cost is
 * bounded by the filter's limits (at most 64 nodes of at most 8 path segments, 100 values per `in`), not by
 * the payload. A field that is missing matches only `exists: false`; comparisons need a number, `prefix` a
 * string; `equals` and `in` compare JSON scalars strictly (`"1"` is not `1`).
 *
 * @example
 * matchesFilter({ field: 'rating', in: ['bad', 'ok'] }, { type: 'page_feedback', rating: 'bad' }); // true
 */
export function matchesFilter(filter: Filter, payload: unknown): boolean {
  if ('and' in filter) return filter.and.every((f) => matchesFilter(f, payload));
  if ('or' in filter) return filter.or.some((f) => matchesFilter(f, payload));
  if ('not' in filter) return !matchesFilter(filter.not, payload);
  const value = valueAt(payload, filter.field);
  if ('exists' in filter) return (value !== undefined) === filter.exists;
  if ('equals' in filter) return value === filter.equals;
  if ('in' in filter) return filter.in.some((v) => v === value);
  if ('prefix' in filter) return typeof value === 'string' && value.startsWith(filter.prefix);
  if (typeof value !== 'number') return false;
  if ('gt' in filter) return value > filter.gt;
  if ('gte' in filter) return value >= filter.gte;
  if ('lt' in filter) return value < filter.lt;
  return value <= filter.lte;
}

/** Parsed filters by the configuration object they came from (routes are cached: parsed once per read). */
const parsed = new WeakMap<object, Filter | null>();

/**
 * Whether a webhook installation receives an event, by its configuration's `filter` (none: every event).
 * A stored filter that no longer parses lets every event through (it was valid when saved).
 *
 * @example
 * passesFilter({ url, filter: { field: 'rating', equals: 'bad' } }, event); // false for rating 'good'
 */
export function passesFilter(configuration: Readonly<Record<string, unknown>>, payload: unknown): boolean {
  if (configuration.filter === undefined || configuration.filter === null) return true;
  let filter = parsed.get(configuration);
  if (filter === undefined) {
    const result = filterSchema.safeParse(configuration.filter);
    filter = result.success ? result.data : null;
    parsed.set(configuration, filter);
  }
  return filter === null || matchesFilter(filter, payload);
}
