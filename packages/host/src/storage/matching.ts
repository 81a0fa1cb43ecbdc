import type { InstallationRecord } from './types.js';

/** Where an event happened. */
export interface EventScope {
  spaceId?: string | null;
  siteId?: string | null;
  organizationId?: string | null;
}

/**
 * Whether an event in `scope` reaches `installation` (pure policy):
 * - only `active` installations receive events;
 * - a space event reaches the space installations of that space, and the organization installations
 *   (of `scope.organizationId` when given) whose space selection is `all` or lists the space;
 * - a site event reaches the site installations of that site;
 * - an event with only `organizationId` reaches the organization installations of that organization.
 *
 * @example
 * installationMatches(inst, { spaceId: 'sp1' }) // true for an active install in space sp1
 */
export function installationMatches(installation: InstallationRecord, scope: EventScope): boolean {
  if (installation.status !== 'active') return false;
  const { spaceId, siteId, organizationId } = scope;
  switch (installation.target) {
    case 'space':
      return !!spaceId && installation.spaceId === spaceId;
    case 'site':
      return !!siteId && installation.siteId === siteId;
    case 'organization': {
      if (organizationId && installation.organizationId !== organizationId) return false;
      if (spaceId) {
        const selection = installation.spaceSelection;
        return selection.mode === 'all' || selection.spaces.includes(spaceId);
      }
      return !siteId && !!organizationId;
    }
    default:
      return false;
  }
}
