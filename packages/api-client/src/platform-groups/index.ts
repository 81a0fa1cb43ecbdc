/**
 * The grouped calls integrations make through `context.api` (`api.integrations`, `api.spaces`,
 * `api.orgs`, ...): served by the host for what it owns, a typed `ApiError` (501 `not_served`, naming
 * the call) for the rest. docs/host-api-from-integrations.md lists them.
 */
import { type IntegrationsGroup, integrationsGroup } from './integrations';
import { type OrgsGroup, orgsGroup, type SpacesGroup, spacesGroup } from './spaces';
import type { ApiRequest, OwnInstallation } from './types';
import { type NotServed, withUnserved } from './unserved';

export type { IntegrationsGroup } from './integrations';
export { DOCUMENT_PAGE_ID, type OrgsGroup, type SpacesGroup } from './spaces';
export type * from './types';
export { type NotServed, notServed, SERVED_CALLS_DOC, withUnserved } from './unserved';

/**
 * Groups the host does not serve at all: each of their methods answers 501 `not_served`.
 * @example UNSERVED_GROUPS.includes('urls'); // true
 */
export const UNSERVED_GROUPS = [
  'urls',
  'user',
  'users',
  'collections',
  'teams',
  'changeRequests',
  'search',
  'openapi',
] as const;

/**
 * A group whose every method rejects with a 501 `not_served` `ApiError`.
 * @example const urls: UnservedGroup = api.urls;
 */
export type UnservedGroup = { readonly [method: string]: NotServed };

/**
 * `api.urls`: not served (501); its method integrations call is named for their types.
 * @example await api.urls.getContentByUrl({ url }).catch((e) => e.status); // 501
 */
export type UrlsGroup = UnservedGroup & { getContentByUrl: NotServed };

/**
 * Every group of the client, served or not.
 * @example const { data } = await api.spaces.getSpaceById('sp');
 */
export type PlatformGroups = {
  integrations: IntegrationsGroup;
  spaces: SpacesGroup;
  orgs: OrgsGroup;
  urls: UrlsGroup;
} & { readonly [G in Exclude<(typeof UNSERVED_GROUPS)[number], 'urls'>]: UnservedGroup };

/**
 * Builds every group on `request`; `own` is the caller's integration, installation and token.
 * @example const groups = platformGroups(client.request, { integration: 'hello', installation: 'inst_1', token });
 */
export function platformGroups(request: ApiRequest, own: OwnInstallation): PlatformGroups {
  const unserved = Object.fromEntries(
    UNSERVED_GROUPS.map((group) => [group, withUnserved(group, {}) as UnservedGroup]),
  ) as { [G in (typeof UNSERVED_GROUPS)[number]]: UnservedGroup } & { urls: UrlsGroup };
  return {
    ...unserved,
    integrations: integrationsGroup(request, own),
    spaces: spacesGroup(request),
    orgs: orgsGroup(request),
  };
}
