/**
 * Permission scopes a manifest may request (SPEC 2.8) and the scope each event needs (PRODUCT.md).
 *
 * @example
 * ```ts
 * import { EVENT_SCOPES, SCOPES } from '@platform/manifest';
 * SCOPES.includes('space:content:read'); // true
 * EVENT_SCOPES.site_view; // 'site:views:read'
 * ```
 */
export { SCOPES, type Scope } from '@platform/api-client';

import type { Scope } from '@platform/api-client';

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
 *
 * @example
 * ```ts
 * const needed = EVENT_SCOPES.space_content_updated; // 'space:content:read'
 * const allowed = needed === null || manifest.scopes.includes(needed);
 * ```
 */
export const EVENT_SCOPES = {
  installation_setup: null,
  space_installation_setup: null,
  ui_render: null,
  space_view: 'space:content:read',
  space_content_updated: 'space:content:read',
  space_visibility_updated: 'space:metadata:read',
  space_gitsync_started: 'space:git:sync',
  space_gitsync_completed: 'space:git:sync',
  site_view: 'site:views:read',
  page_feedback: 'site:views:read',
} as const satisfies Record<string, Scope | null>;

/** Event types that appear in {@link EVENT_SCOPES}. */
export type ScopedEventType = keyof typeof EVENT_SCOPES;

/**
 * Categories an integration may list (SPEC 2.7).
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
  'other',
] as const;

/**
 * Visibility values of an integration (SPEC 2.7).
 *
 * @example
 * ```ts
 * VISIBILITIES[0]; // 'private'
 * ```
 */
export const VISIBILITIES = ['private', 'unlisted', 'public'] as const;
