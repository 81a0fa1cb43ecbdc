import { z } from 'zod';
import { describeKind, hasPath, isRecord, truncate, valueAt } from './data.js';
import type { PathSegments, PendingIssue } from './issues.js';
import { didYouMean } from './suggest.js';

type Segment = string | number;

function unwrap(schema: unknown): unknown {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap();
  return current;
}

/** Picks the variant of a discriminated union that matches `value` (by its `type`). */
function variantFor(schema: unknown, value: unknown): unknown {
  const s = unwrap(schema);
  if (s instanceof z.ZodUnion && !(s instanceof z.ZodDiscriminatedUnion) && isRecord(value)) {
    // e.g. `contentSecurityPolicy`: a string or a mapping; a mapping is checked as the mapping.
    return s.options.find((o) => o instanceof z.ZodObject) ?? s;
  }
  if (!(s instanceof z.ZodDiscriminatedUnion)) return s;
  const tag = isRecord(value) ? value[s.def.discriminator] : undefined;
  return s.options.find((o) => {
    const field = o instanceof z.ZodObject ? o.shape[s.def.discriminator] : undefined;
    return field instanceof z.ZodLiteral && field.values.has(tag as never);
  });
}

/** The schema describing the value at `path`, resolving unions with the actual data. */
export function schemaAt(root: unknown, path: PathSegments, data: unknown, resolveLast = true): unknown {
  let schema = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as Segment;
    const here = variantFor(schema, valueAt(data, path.slice(0, i)));
    if (here instanceof z.ZodObject) schema = (here.shape as Record<string, unknown>)[String(segment)];
    else if (here instanceof z.ZodArray) schema = here.element;
    else if (here instanceof z.ZodRecord) schema = here.valueType;
    else return undefined;
  }
  return resolveLast ? variantFor(schema, valueAt(data, path)) : unwrap(schema);
}

/** Keys a mapping at `path` accepts, and for union variants the variant types that accept `key`. */
function unknownKeyMessage(root: unknown, path: PathSegments, key: string, data: unknown): string {
  const schema = schemaAt(root, path, data);
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const container = schemaAt(root, path, data, false);
  if (container instanceof z.ZodDiscriminatedUnion) {
    const type = valueAt(data, [...path, container.def.discriminator]);
    const owners = container.options
      .filter((o) => o instanceof z.ZodObject && Object.hasOwn(o.shape, key))
      .map((o) => {
        const field = o instanceof z.ZodObject ? o.shape[container.def.discriminator] : undefined;
        return field instanceof z.ZodLiteral ? `\`${String(field.value)}\`` : '';
      });
    if (owners.length > 0) {
      return `\`${key}\` is not allowed on a property of type \`${String(type)}\`; only ${owners.join(', ')} properties take it. Remove it or change \`type\`.`;
    }
  }
  const where = path.length === 0 ? 'at the top level' : `in \`${label(path)}\``;
  const hint = didYouMean(key, known);
  const allowed = known.length > 0 ? ` Allowed keys: ${known.join(', ')}.` : '';
  return `unknown key \`${truncate(key)}\` ${where}.${hint || allowed}`;
}

/** Human name of the field at `path`: its key, or `list[n]` for list items. */
export function label(path: PathSegments): string {
  let lastKey = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (typeof path[i] === 'string') {
      lastKey = i;
      break;
    }
  }
  if (lastKey < 0) return 'the manifest';
  return path
    .slice(lastKey)
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: '`true` or `false`',
  array: 'a list',
  object: 'a mapping of `key: value` pairs',
};

function expectedText(expected: string): string {
  return EXPECTED[expected] ?? expected;
}

/** Converts zod's issues into located-later manifest issues with messages a person can act on. */
export function fromZodIssues(
  root: unknown,
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
): PendingIssue[] {
  const out: PendingIssue[] = [];
  const error = (path: PathSegments, anchor: PendingIssue['anchor'], message: string) =>
    out.push({ path, anchor, message, severity: 'error' });
  for (const issue of issues) {
    const path = issue.path as Segment[];
    const value = valueAt(data, path);
    const name = `\`${label(path)}\``;
    const describe = (v: unknown) => describeKind(v, path[0] === 'secrets');
    switch (issue.code) {
      case 'invalid_type': {
        if (path.length === 0) {
          error(
            path,
            'value',
            `the manifest must be a YAML mapping of \`key: value\` pairs, got ${describe(value)}`,
          );
        } else if (!hasPath(data, path)) {
          error(
            path,
            'parent',
            `missing required key ${name} (${expectedText(issue.expected)}); add it here`,
          );
        } else {
          error(path, 'value', `${name} must be ${expectedText(issue.expected)}, got ${describe(value)}`);
        }
        break;
      }
      case 'invalid_union': {
        const discriminator = (issue as { discriminator?: string }).discriminator;
        const options = (issue as { options?: unknown[] }).options;
        if (discriminator && options) {
          const choices = options.map((o) => `\`${String(o)}\``).join(', ');
          const at = path[path.length - 1] === discriminator ? path : [...path, discriminator];
          const tag = valueAt(data, at);
          if (!hasPath(data, at))
            error(at, 'parent', `missing required key \`${discriminator}\` (one of ${choices})`);
          else
            error(
              at,
              'value',
              `\`${discriminator}\` must be one of ${choices}, got ${describe(tag)}.${typeof tag === 'string' ? didYouMean(tag, options.map(String)) : ''}`,
            );
        } else error(path, 'value', `${name} is not valid: ${issue.message}`);
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map(String);
        const hint = typeof value === 'string' ? didYouMean(value, values) : '';
        const list = values.map((v) => `\`${v}\``).join(', ');
        error(
          path,
          'value',
          values.length > 8 && hint
            ? `${name}: ${describe(value)} is not one of the ${values.length} allowed values.${hint}`
            : `${name} must be one of ${list}, got ${describe(value)}.${hint}`,
        );
        break;
      }
      case 'unrecognized_keys':
        for (const key of issue.keys) error([...path, key], 'key', unknownKeyMessage(root, path, key, data));
        break;
      case 'invalid_key': {
        const inner = issue.issues[0]?.message ?? 'invalid key';
        error(path, 'key', `invalid name \`${truncate(String(path[path.length - 1]))}\`: ${inner}`);
        break;
      }
      case 'invalid_format':
        if (issue.format === 'url')
          error(
            path,
            'value',
            `${name} must be an http(s) URL such as \`https://example.com\`, got ${describe(value)}`,
          );
        else error(path, 'value', `${issue.message}, got ${describe(value)}`);
        break;
      case 'too_big':
        error(
          path,
          'value',
          typeof value === 'string' ? `${issue.message} (it has ${value.length}); shorten it` : issue.message,
        );
        break;
      default:
        error(path, 'value', issue.message);
    }
  }
  return out;
}
