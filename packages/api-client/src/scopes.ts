/**
 * Every scope value, in the order of docs/contracts.md "Scopes".
 *
 * @example
 * SCOPES.includes('openapi:read'); // true
 */
export const SCOPES = [
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
] as const;

/** One permission scope (docs/contracts.md "Scopes"; the single list of them is {@link SCOPES}). */
export type Scope = (typeof SCOPES)[number];

/**
 * Narrows a string to a {@link Scope}.
 *
 * @example
 * isScope('space:git:sync'); // true
 */
export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
