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
export { SCOPES, type Scope } from '@platform/api-client';

import type { Scope } from '@platform/api-client';
import { EVENT_SCOPES as CATALOGUE_SCOPES, type EventType } from '@platform/events/catalogue';

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
