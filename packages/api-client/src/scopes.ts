/**
 * Permissions an integration requests in its manifest `scopes` list (SPEC 2.8).
 *
 * `site:script:inject` and `site:script:cookies` are internal: only first-party
 * integrations may request them.
 *
 * @example
 * const scopes: Scope[] = ['space:content:read', 'site:views:read'];
 */
export type Scope =
  | 'space:content:read'
  | 'space:content:write'
  | 'space:metadata:read'
  | 'space:metadata:write'
  | 'space:git:sync'
  | 'site:metadata:read'
  | 'site:views:read'
  | 'site:script:inject'
  | 'site:script:cookies'
  | 'site:visitor:auth'
  | 'site:visitor:claims'
  | 'site:adaptive:read'
  | 'site:adaptive:write'
  | 'openapi:read'
  | 'openapi:write'
  | 'conversations:ingest';

/**
 * Every scope value, in the order of SPEC 2.8.
 *
 * @example
 * SCOPES.includes('openapi:read'); // true
 */
export const SCOPES: readonly Scope[] = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
];

/**
 * Narrows a string to a {@link Scope}.
 *
 * @example
 * isScope('space:git:sync'); // true
 */
export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
