import type { Principal } from '../access/principal.js';
import type { TokenResolver } from '../access/resolve.js';
import { hashToken, randomToken } from '../auth.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { newId, type PortalSessionRecord } from '../storage/index.js';
import { audit } from './audit.js';
import { contentBase, type HostContext } from './context.js';
import { requireWebhookInstallation } from './webhooks.js';

/** How long a portal link is valid when the request does not say. */
export const DEFAULT_PORTAL_TTL_MINUTES = 15;

/** What `createPortalSession` takes (the body of `POST /v1/portal/sessions`). */
export interface PortalSessionInput {
  installation?: string;
  organization?: string;
  ttlMinutes?: number;
}

/**
 * Where the portal page is: on the content origin (never the API's, so nothing in it can reach the
 * dashboard's stored operator token), with the session token and the API's address in the fragment, which
 * browsers never send to a server or in a Referer.
 */
export function portalUrl(ctx: HostContext, token: string): string {
  const fragment = new URLSearchParams({ token, api: ctx.baseUrl() });
  return `${contentBase(ctx)}/portal/#${fragment.toString()}`;
}

/** The API view of a portal session; `token` only when it was just created. */
export function portalSessionView(ctx: HostContext, record: PortalSessionRecord, token: string) {
  return {
    id: record.id,
    url: portalUrl(ctx, token),
    token,
    installation: record.installationId,
    organization: record.organizationId,
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
}

/**
 * Opens a subscriber portal session for one webhook installation, or for every webhook installation of an
 * organization (an organization token: of its own only). Answers the link once; stored hashed.
 *
 * @example
 * const session = await createPortalSession(ctx, principal, { installation: 'inst_1', ttlMinutes: 30 });
 * session.url; // 'http://127.0.0.1:8081/portal/#token=pps_…&api=…'
 */
export async function createPortalSession(ctx: HostContext, principal: Principal, input: PortalSessionInput) {
  if (new URL(contentBase(ctx)).origin === new URL(ctx.baseUrl()).origin) {
    // the portal is served on the content origin only: on the API's it would share the dashboard's storage
    throw new HttpError(
      409,
      'portal_unavailable',
      "The subscriber portal needs a content origin other than the API's, and this host has none: set PLATFORM_CONTENT_URL (docs/portal.md).",
    );
  }
  const mine = principal.kind === 'organization' ? principal.organizationId : null;
  if (input.installation !== undefined && input.organization !== undefined) {
    throw badRequest('Give installation or organization, not both.');
  }
  let installationId: string | null = null;
  let organizationId: string | null;
  if (input.installation !== undefined) {
    const record = await requireWebhookInstallation(ctx, input.installation);
    if (mine !== null && record.ownerOrganization !== mine)
      throw notFound(`Installation "${input.installation}"`);
    installationId = record.id;
    organizationId = record.ownerOrganization;
  } else {
    organizationId = input.organization ?? mine;
    if (organizationId === null) {
      throw badRequest(
        'Give the webhook installation (`installation`) or the organization (`organization`) the portal shows.',
      );
    }
    if (mine !== null && organizationId !== mine) throw notFound(`Organization "${organizationId}"`);
    if (!(await ctx.storage.organizations.get(organizationId)))
      throw notFound(`Organization "${organizationId}"`);
  }
  const token = randomToken('pps_');
  const now = Date.now();
  const record = await ctx.storage.accessTokens.createSession({
    // not `pps_`: that prefix is the session token's; an id must never look like a secret in the audit log or a log line
    id: newId('psn'),
    tokenHash: hashToken(token),
    organizationId,
    installationId,
    expiresAt: now + (input.ttlMinutes ?? DEFAULT_PORTAL_TTL_MINUTES) * 60_000,
    createdBy: principal.kind === 'organization' ? `token:${principal.tokenId}` : principal.kind,
    now,
  });
  await audit(ctx, principal, {
    action: 'portal_session.create',
    resourceType: installationId ? 'installation' : 'organization',
    resourceId: installationId ?? organizationId ?? '',
    organizationId,
    changes: { session: record.id, expiresAt: new Date(record.expiresAt).toISOString() },
  });
  return portalSessionView(ctx, record, token);
}

/** Revokes a portal session: its page stops working at the next request (5 s on other hosts). */
export async function revokePortalSession(
  ctx: HostContext,
  resolver: TokenResolver,
  principal: Principal,
  id: string,
): Promise<void> {
  const record = await ctx.storage.accessTokens.getSession(id);
  if (!record) throw notFound(`Portal session "${id}"`);
  const revoked = await ctx.storage.accessTokens.revokeSession(id);
  resolver.forget(record.tokenHash);
  if (revoked) {
    await audit(ctx, principal, {
      action: 'portal_session.revoke',
      resourceType: record.installationId ? 'installation' : 'organization',
      resourceId: record.installationId ?? record.organizationId ?? '',
      organizationId: record.organizationId,
      changes: { session: id },
    });
  }
}
