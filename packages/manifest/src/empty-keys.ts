import { isRecord } from './data.js';
import type { PendingIssue } from './issues.js';
import { manifestSchema } from './schema.js';

/** Top-level keys the manifest may leave out (optional, or with a default). */
const OPTIONAL_KEYS = new Set(
  Object.entries(manifestSchema.shape)
    .filter(([, schema]) => schema.safeParse(undefined).success)
    .map(([key]) => key),
);

/**
 * An optional top-level key written with no value (`summary:` alone is `null` in YAML) is read as
 * left out, with a warning at the key; a required key with no value stays an error of the schema.
 * docs/contracts.md "Manifest".
 *
 * @example
 * ```ts
 * const { data, warnings } = dropEmptyOptionalKeys({ name: 'x', summary: null });
 * data; // { name: 'x' }
 * warnings[0].message; // '`summary` has no value, so it is left out; give it a value or remove the key'
 * ```
 */
export function dropEmptyOptionalKeys(data: unknown): { data: unknown; warnings: PendingIssue[] } {
  if (!isRecord(data)) return { data, warnings: [] };
  const empty = Object.keys(data).filter((key) => data[key] === null && OPTIONAL_KEYS.has(key));
  if (empty.length === 0) return { data, warnings: [] };
  const kept = Object.fromEntries(Object.entries(data).filter(([key]) => !empty.includes(key)));
  const warnings: PendingIssue[] = empty.map((key) => ({
    path: [key],
    anchor: 'key',
    message: `\`${key}\` has no value, so it is left out; give it a value or remove the key`,
    severity: 'warning',
  }));
  return { data: kept, warnings };
}
