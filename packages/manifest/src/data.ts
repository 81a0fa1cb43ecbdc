import type { PathSegments } from './issues.js';

/** Whether a value is a plain mapping (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` inside parsed data, or `undefined`. */
export function valueAt(data: unknown, path: PathSegments): unknown {
  let value = data;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isRecord(value)) value = Object.hasOwn(value, segment) ? value[segment] : undefined;
    else return undefined;
  }
  return value;
}

/** Whether the mapping at `path` minus its last segment has that key. */
export function hasPath(data: unknown, path: PathSegments): boolean {
  const parent = valueAt(data, path.slice(0, -1));
  const last = path[path.length - 1];
  if (last === undefined) return true;
  if (Array.isArray(parent)) return typeof last === 'number' && last < parent.length;
  return isRecord(parent) && Object.hasOwn(parent, last);
}

/** A short description of a value's YAML kind: `a string`, `a list`, `nothing`, ...; `redact` hides scalars. */
export function describeKind(value: unknown, redact = false): string {
  if (value === null || value === undefined) return 'nothing';
  if (redact && typeof value !== 'object') return `a ${typeof value}`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (isRecord(value)) return 'a mapping';
  if (typeof value === 'boolean') return `\`${value}\` (a boolean)`;
  if (typeof value === 'number') return `\`${value}\` (a number)`;
  if (typeof value === 'string') return `\`${truncate(value)}\` (a string)`;
  return `a ${typeof value}`;
}

/** Shortens a value quoted in a message. */
export function truncate(text: string, max = 40): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
