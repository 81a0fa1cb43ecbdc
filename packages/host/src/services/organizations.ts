import { ALL_SCOPES, type Principal, type Scope } from '../access/principal.js';
import type { TokenResolver } from '../access/resolve.js';
import { hashToken, randomToken } from '../auth.js';
import { badRequest, conflict, HttpError, notFound } from '../errors.js';
import { newId, type OrganizationTokenRecord } from '../storage/index.js';
import { audit } from './audit.js';
import type { HostContext } from './context.js';

/** An organization id: what manifests (`organization`), tokens and the directory name it by. */
export const ORGANIZATION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** 400 unless `id` is a valid organization id. */
export function checkOrganizationId(id: string, where = 'organization'): void {
  if (!ORGANIZATION_ID.test(id)) {
    throw badRequest(
      `${where} must be 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit (e.g. "acme"); got "${id.slice(0, 80)}".`,
    );
  }
}

/**
 * Creates an organization (operator). 409 when the id is taken.
 *
 * @example
 * await createOrganization(ctx, principal, { id: 'acme', name: 'Acme Inc.' });
 */
export async function createOrganization(
  ctx: HostContext,
  principal: Principal,
  input: { id: string; name?: string },
) {
  checkOrganizationId(input.id, 'id');
  const created = await ctx.storage.organizations.create({ id: input.id, name: input.name ?? input.id });
  if (!created) throw conflict(`Organization "${input.id}" exists already.`);
  await audit(ctx, principal, {
    action: 'organization.create',
    resourceType: 'organization',
    resourceId: input.id,
    organizationId: input.id,
    changes: { name: input.name ?? input.id },
  });
  const record = await ctx.storage.organizations.get(input.id);
  if (!record) throw notFound(`Organization "${input.id}"`);
  return record;
}

/** The API view of an organization token: never the token itself, nor its hash. */
export function tokenView(record: OrganizationTokenRecord, now = Date.now()) {
  const status =
    record.revokedAt !== null
      ? 'revoked'
      : record.expiresAt !== null && record.expiresAt <= now
        ? 'expired'
        : 'active';
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    organization: record.organizationId,
    name: record.name,
    scopes: record.scopes,
    status,
    expiresAt: iso(record.expiresAt),
    revokedAt: iso(record.revokedAt),
    lastUsedAt: iso(record.lastUsedAt),
    createdBy: record.createdBy,
    createdAt: new Date(record.createdAt).toISOString(),
  } as const;
}

/** What `createToken` takes (the body of `POST /v1/organizations/{organization}/tokens`). */
export interface CreateTokenInput {
  name: string;
  scopes: string[];
  /** ISO 8601 time; absent: the token does not expire. */
  expiresAt?: string;
}

/**
 * Creates an organization token; answers the token once (only its hash is kept). An organization token can
 * grant only the scopes it holds itself.
 *
 * @example
 * const { token } = await createToken(ctx, principal, 'acme', { name: 'ci', scopes: ['integrations:publish'] });
 */
export async function createToken(
  ctx: HostContext,
  principal: Principal,
  organizationId: string,
  input: CreateTokenInput,
) {
  if (!(await ctx.storage.organizations.get(organizationId))) {
    throw notFound(`Organization "${organizationId}"`);
  }
  const unknown = input.scopes.filter((s) => !(ALL_SCOPES as string[]).includes(s));
  if (unknown.length > 0) {
    throw badRequest(
      `scopes: unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; known: ${ALL_SCOPES.join(', ')}.`,
    );
  }
  const scopes = [...new Set(input.scopes)] as Scope[];
  if (principal.kind === 'organization') {
    const beyond = scopes.filter((s) => !principal.scopes.includes(s));
    if (beyond.length > 0) {
      throw new HttpError(
        403,
        'missing_scope',
        `This token cannot grant ${beyond.map((s) => `\`${s}\``).join(', ')}: a token grants only scopes it holds itself.`,
        { scope: beyond[0] },
      );
    }
  }
  let expiresAt: number | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = Date.parse(input.expiresAt);
    if (Number.isNaN(expiresAt))
      throw badRequest(`expiresAt must be an ISO 8601 time; got "${input.expiresAt}".`);
    if (expiresAt <= Date.now()) throw badRequest('expiresAt must be in the future.');
  }
  const token = randomToken('pot_');
  const record = await ctx.storage.accessTokens.createToken({
    id: newId('tok'),
    organizationId,
    name: input.name,
    tokenHash: hashToken(token),
    scopes,
    expiresAt,
    createdBy: principal.kind === 'organization' ? `token:${principal.tokenId}` : principal.kind,
  });
  await audit(ctx, principal, {
    action: 'token.create',
    resourceType: 'token',
    resourceId: record.id,
    organizationId,
    changes: { name: record.name, scopes, expiresAt: input.expiresAt ?? null },
  });
  return { ...tokenView(record), token };
}

/**
 * Revokes an organization token (at once on this host; within the token cache's 5 s on others).
 *
 * @example
 * await revokeToken(ctx, resolver, principal, 'acme', 'tok_…');
 */
export async function revokeToken(
  ctx: HostContext,
  resolver: TokenResolver,
  principal: Principal,
  organizationId: string,
  tokenId: string,
) {
  const record = await ctx.storage.accessTokens.getToken(tokenId);
  if (!record || record.organizationId !== organizationId) throw notFound(`Token "${tokenId}"`);
  const revoked = await ctx.storage.accessTokens.revokeToken(tokenId);
  resolver.forget(record.tokenHash);
  if (revoked) {
    await audit(ctx, principal, {
      action: 'token.revoke',
      resourceType: 'token',
      resourceId: tokenId,
      organizationId,
      changes: { name: record.name },
    });
  }
}

/**
 * Records in the directory which organization owns a space or a site (the platform's call, operator
 * token). The organization is created when new; installations of the resource that had no owner are
 * given to it. Events of the resource then reach only installations its owner (or the operator) made.
 *
 * @example
 * await setResourceOwner(ctx, principal, 'space', 'sp1', 'acme');
 */
export async function setResourceOwner(
  ctx: HostContext,
  principal: Principal,
  kind: 'space' | 'site',
  resourceId: string,
  organizationId: string,
) {
  checkOrganizationId(organizationId);
  const { previous, adopted } = await ctx.storage.transaction(async (tx) => {
    await tx.organizations.ensure(organizationId);
    const previous = await tx.organizations.ownerOf(kind, resourceId);
    await tx.organizations.setOwner(kind, resourceId, organizationId);
    const adopted = await tx.installations.adopt(kind, resourceId, organizationId);
    return { previous, adopted };
  });
  if (previous !== organizationId) {
    await audit(ctx, principal, {
      action: `${kind}.owner`,
      resourceType: kind,
      resourceId,
      organizationId,
      changes: { from: previous, to: organizationId, adoptedInstallations: adopted },
    });
  }
  return { kind, id: resourceId, organization: organizationId, previous, adoptedInstallations: adopted };
}

/** Forgets the owner of a space or site: only the operator's installations receive its events then. */
export async function removeResourceOwner(
  ctx: HostContext,
  principal: Principal,
  kind: 'space' | 'site',
  resourceId: string,
) {
  const previous = await ctx.storage.organizations.ownerOf(kind, resourceId);
  if (previous === null || !(await ctx.storage.organizations.removeOwner(kind, resourceId))) {
    throw notFound(`An owner of ${kind} "${resourceId}"`);
  }
  await audit(ctx, principal, {
    action: `${kind}.owner`,
    resourceType: kind,
    resourceId,
    organizationId: previous,
    changes: { from: previous, to: null },
  });
}
