/**
 * Permission scopes a manifest may request (docs/contracts.md "Scopes") and the scope each event needs
 * (docs/events.md).
 *
 * @example
 * ```ts
 * import { EVENT_SCOPES, SCOPES } from '@platform/manifest';
 * SCOPES.includes('space:content:read'); // true
 * EVENT_SCOPES.fetch; // null
 * ```
 */
export { currentScopeName, SCOPE_ALIASES, SCOPES, type Scope } from '@platform/api-client';

import { currentScopeName, type Scope } from '@platform/api-client';
import { EVENT_SCOPES as CATALOGUE_SCOPES, type EventType } from '@platform/events/catalogue';
import type { PendingIssue } from './issues.js';

/**
 * Scopes reserved to first-party integrations (the ones bundled with the platform).
 *
 * @example
 * ```ts
 * INTERNAL_SCOPES.includes('site:script:inject'); // true
 * ```
 */
export const INTERNAL_SCOPES = [
  'site:script:inject',
  'site:script:cookies',
] as const satisfies readonly Scope[];

/**
 * The scope an installation's integration needs to receive each event; `null` when none is needed.
 * From the event catalogue (`@platform/events`); checked here against the scopes a manifest may request.
 *
 * @example
 * ```ts
 * const needed = EVENT_SCOPES[event.type]; // e.g. 'space:content:read'
 * const allowed = needed === null || manifest.scopes.includes(needed);
 * ```
 */
export const EVENT_SCOPES = CATALOGUE_SCOPES satisfies Record<EventType, Scope | null>;

/** Event types that appear in {@link EVENT_SCOPES} (every event of the catalogue). */
export type ScopedEventType = EventType;

/**
 * Categories an integration may list (docs/contracts.md "Manifest").
 *
 * @example
 * ```ts
 * CATEGORIES.includes('analytics'); // true
 * ```
 */
export const CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'marketing',
  'authenticated-access',
  'visitor-auth',
  'gitsync',
  'other',
] as const;

/**
 * Visibility values of an integration (docs/contracts.md "Manifest").
 *
 * @example
 * ```ts
 * VISIBILITIES[0]; // 'private'
 * ```
 */
export const VISIBILITIES = ['private', 'unlisted', 'public'] as const;

/**
 * Rewrites the renamed scopes of a parsed manifest (`SCOPE_ALIASES` of `@platform/api-client`) to their
 * new names, before validation, and returns a warning for each, at its list item. Returns the data
 * unchanged (same object) when nothing was renamed.
 *
 * @example
 * ```ts
 * const { data, warnings } = renameScopes({ scopes: ['space:views:read'] });
 * data; // { scopes: ['site:views:read'] }
 * warnings[0].message; // '`space:views:read` is now `site:views:read`; rename it'
 * ```
 */
export function renameScopes(data: unknown): { data: unknown; warnings: PendingIssue[] } {
  if (typeof data !== 'object' || data === null || !('scopes' in data) || !Array.isArray(data.scopes)) {
    return { data, warnings: [] };
  }
  const warnings: PendingIssue[] = [];
  const scopes = data.scopes.map((scope: unknown, i: number) => {
    if (typeof scope !== 'string' || currentScopeName(scope) === scope) return scope;
    const current = currentScopeName(scope);
    warnings.push({
      path: ['scopes', i],
      anchor: 'value',
      message: `\`${scope}\` is now \`${current}\`; rename it`,
      severity: 'warning',
    });
    return current;
  });
  return warnings.length === 0 ? { data, warnings } : { data: { ...data, scopes }, warnings };
}
