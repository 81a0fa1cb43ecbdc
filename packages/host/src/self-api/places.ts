import type { Principal } from '../access/principal.js';
import { forbidden, HttpError } from '../errors.js';
import { siteUrl } from '../invocation/site-fields.js';
import type { HostContext } from '../services/context.js';
import type { InstallationRecord } from '../storage/index.js';

/** A space as the host knows it: its owner in the directory and its document's revision. */
export interface SpaceView {
  object: 'space';
  id: string;
  organization: string | null;
  currentRevision: string;
  /** `app`: the space's page in the dashboard (its editor). */
  urls: { app: string };
}

/** A site as the host knows it: its owner in the directory, and where the host serves it to visitors. */
export interface SiteView {
  object: 'site';
  id: string;
  organization: string | null;
  /**
   * `published`: where the host serves the site (content origin); `app`: where its installations are
   * managed in the dashboard (the dashboard has no page per site).
   */
  urls: { app: string; published: string };
}

/**
 * Whether an installation is in the space or site `id` (whatever its status: a configuration screen
 * of a pending installation reads its place too). Pure.
 *
 * @example
 * installedIn(record, 'space', 'sp1'); // true for a space installation of sp1
 */
export function installedIn(installation: InstallationRecord, kind: 'space' | 'site', id: string): boolean {
  if (kind === 'site') return installation.siteId === id;
  if (installation.spaceId === id) return true;
  if (installation.target !== 'organization') return false;
  const selection = installation.spaceSelection;
  return selection.mode === 'all' || selection.spaces.includes(id);
}

/**
 * The scopes that let an installation read its space or site: `space:metadata:read` (or
 * `space:content:read`, which reads the space's content, more than its metadata), `site:metadata:read`.
 */
export const PLACE_READ_SCOPES = {
  space: ['space:metadata:read', 'space:content:read'],
  site: ['site:metadata:read'],
} as const;

/**
 * The scope an integration lacks to read a space or site, or null when its manifest has one that
 * allows it. Pure.
 *
 * @example
 * missingPlaceScope('site', ['site:views:read']); // 'site:metadata:read'
 * missingPlaceScope('space', ['space:content:read']); // null
 */
export function missingPlaceScope(kind: 'space' | 'site', scopes: readonly unknown[]): string | null {
  const allowed: readonly string[] = PLACE_READ_SCOPES[kind];
  return allowed.some((scope) => scopes.includes(scope)) ? null : (allowed[0] ?? null);
}

/**
 * The operator, or an installation in the place whose integration has a scope to read it; anyone else
 * is refused (403, naming the place or the scope to add).
 */
async function requirePlace(ctx: HostContext, principal: Principal, kind: 'space' | 'site', id: string) {
  if (principal.kind === 'operator') return;
  if (principal.kind !== 'installation')
    throw forbidden('This needs the operator token or an installation token.');
  const installation = await ctx.storage.installations.get(principal.installationId);
  if (!installation || !installedIn(installation, kind, id)) {
    throw forbidden(`This installation is not installed in ${kind} "${id}"; it cannot read it.`);
  }
  const integration = await ctx.storage.integrations.getLatest(installation.integrationName);
  const missing = missingPlaceScope(kind, (integration?.manifest.scopes ?? []) as unknown[]);
  if (missing !== null) {
    throw new HttpError(
      403,
      'missing_scope',
      `Reading a ${kind} needs the scope \`${missing}\` in the integration's manifest.`,
      { scope: missing },
    );
  }
}

/**
 * `GET /v1/spaces/{spaceId}` (docs/host-api-from-integrations.md): the operator, or an installation in
 * the space with `space:metadata:read` or `space:content:read`. The host keeps no title, visibility or URLs of spaces: only what it owns.
 *
 * @example
 * const space = await getSpace(ctx, principal, 'sp1'); // { object: 'space', id: 'sp1', organization: 'acme', currentRevision: '2', urls: { app: 'http://127.0.0.1:8080/spaces/sp1' } }
 */
export async function getSpace(ctx: HostContext, principal: Principal, spaceId: string): Promise<SpaceView> {
  await requirePlace(ctx, principal, 'space', spaceId);
  const [organization, document] = await Promise.all([
    ctx.storage.organizations.ownerOf('space', spaceId),
    ctx.storage.documents.get(spaceId),
  ]);
  return {
    object: 'space',
    id: spaceId,
    organization,
    currentRevision: String(document?.revision ?? 0),
    urls: { app: `${ctx.baseUrl()}/spaces/${encodeURIComponent(spaceId)}` },
  };
}

/**
 * `GET /v1/sites/{siteId}`: the operator, or an installation in the site with `site:metadata:read`.
 *
 * @example
 * const site = await getSite(ctx, principal, 'site_1'); // { object: 'site', id: 'site_1', organization: null, urls: { app: 'http://127.0.0.1:8080/installations', published: 'http://127.0.0.1:8081/sites/site_1' } }
 */
export async function getSite(ctx: HostContext, principal: Principal, siteId: string): Promise<SiteView> {
  await requirePlace(ctx, principal, 'site', siteId);
  const organization = await ctx.storage.organizations.ownerOf('site', siteId);
  return {
    object: 'site',
    id: siteId,
    organization,
    urls: { app: `${ctx.baseUrl()}/installations`, published: siteUrl(ctx, siteId) },
  };
}
