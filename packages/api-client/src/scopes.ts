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

/**
 * Scope names that were renamed, old -> new (docs/contracts.md "Scopes"). Manifests written for the
 * older names still load: the manifest loader warns and uses the new name, so nothing downstream
 * (installations, event routing, the dashboard) ever sees an old one. Each pair is a rename of the
 * same permission when published spaces became sites: script injection, page views and feedback,
 * visitor authentication.
 *
 * @example
 * SCOPE_ALIASES['space:views:read']; // 'site:views:read'
 */
export const SCOPE_ALIASES = {
  'space:script:inject': 'site:script:inject',
  'space:script:cookies': 'site:script:cookies',
  'space:views:read': 'site:views:read',
  'space:visitor:auth': 'site:visitor:auth',
  // Page feedback is read with page views here (docs/events.md: `page_feedback` needs `site:views:read`).
  'page:feedback:read': 'site:views:read',
} as const satisfies Record<string, Scope>;

/** An old scope name of {@link SCOPE_ALIASES}. */
export type ScopeAlias = keyof typeof SCOPE_ALIASES;

/**
 * The current name of a scope: the new name of an old one ({@link SCOPE_ALIASES}), any other value
 * as it is.
 *
 * @example
 * currentScopeName('space:script:inject'); // 'site:script:inject'
 * currentScopeName('space:content:read'); // 'space:content:read'
 */
export function currentScopeName(value: string): string {
  return Object.hasOwn(SCOPE_ALIASES, value) ? SCOPE_ALIASES[value as ScopeAlias] : value;
}
