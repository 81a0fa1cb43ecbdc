import type { PendingIssue } from './issues.js';
import { NAME_PATTERN } from './schema.js';

/**
 * Reads a `name` written with capitals (`My-Integration`) as its lowercase form (`my-integration`)
 * with a warning, when that form is a valid name: manifests written for the platform this one
 * models often capitalise it. Names are lowercase here because they appear in URLs and two names
 * differing only in case must not be two integrations; the lowercase form is the name the host
 * publishes under (docs/manifest.md "name"). Any other invalid name is left for the schema to refuse.
 *
 * @example
 * ```ts
 * const { data, warnings } = normalizeName({ name: 'VA-Okta' });
 * data; // { name: 'va-okta' }
 * warnings[0].message; // '`name` `VA-Okta` is read as `va-okta`; ...'
 * ```
 */
export function normalizeName(data: unknown): { data: unknown; warnings: PendingIssue[] } {
  if (typeof data !== 'object' || data === null || !('name' in data) || typeof data.name !== 'string') {
    return { data, warnings: [] };
  }
  const name = data.name;
  const lower = name.toLowerCase();
  if (name === lower || !NAME_PATTERN.test(lower)) return { data, warnings: [] };
  return {
    data: { ...data, name: lower },
    warnings: [
      {
        path: ['name'],
        anchor: 'value',
        message: `\`name\` \`${name}\` is read as \`${lower}\`, the name it is published under (names are lowercase: they appear in URLs, and case alone never tells two integrations apart); write \`name: ${lower}\``,
        severity: 'warning',
      },
    ],
  };
}
