import type { Principal } from '../access/principal.js';
import { type AuditRecord, type Json, newSortableId } from '../storage/index.js';

import type { HostContext } from './context.js';

/** What an audited action says of itself; who did it and when come from the principal and the clock. */
export interface AuditEntry {
  /** e.g. `installation.configure`, `webhook_secret.reveal` (docs/security.md "Audit log"). */
  action: string;
  resourceType: string;
  resourceId: string;
  /** The organization that owns the resource (whose log shows it); null: the operator's alone. */
  organizationId: string | null;
  /** What changed: names and non-secret values only, never a secret. */
  changes?: Record<string, Json>;
}

/** Who acted, as the audit log records it. */
export function actorOf(
  principal: Principal,
): Pick<AuditRecord, 'actor' | 'actorOrganization' | 'tokenId' | 'tokenName'> {
  switch (principal.kind) {
    case 'operator':
      return { actor: 'operator', actorOrganization: null, tokenId: null, tokenName: null };
    case 'installation':
      return {
        actor: 'installation',
        actorOrganization: null,
        tokenId: principal.installationId,
        tokenName: null,
      };
    case 'organization':
      return {
        actor: 'organization',
        actorOrganization: principal.organizationId,
        tokenId: principal.tokenId,
        tokenName: principal.tokenName,
      };
    case 'portal':
      return {
        actor: 'portal',
        actorOrganization: principal.organizationId,
        tokenId: principal.sessionId,
        tokenName: 'portal session',
      };
  }
}

/**
 * Appends one entry to the audit log, after the action it records has committed. A failure to write it is
 * logged, never turned into the caller's error (the action happened).
 *
 * @example
 * await audit(ctx, principal, { action: 'installation.pause', resourceType: 'installation', resourceId: id, organizationId: record.ownerOrganization });
 */
export async function audit(ctx: HostContext, principal: Principal, entry: AuditEntry): Promise<void> {
  const at = Date.now();
  try {
    await ctx.storage.audit.append({
      id: newSortableId('aud', at),
      at,
      ...actorOf(principal),
      organizationId: entry.organizationId,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      changes: entry.changes ?? {},
    });
  } catch (error) {
    ctx.logger.error({ err: error, action: entry.action }, 'could not write the audit log');
  }
}

/** The API view of an audit entry. */
export function auditView(record: AuditRecord) {
  return {
    id: record.id,
    at: new Date(record.at).toISOString(),
    actor: {
      kind: record.actor,
      ...(record.actorOrganization ? { organization: record.actorOrganization } : {}),
      ...(record.tokenId ? { tokenId: record.tokenId } : {}),
      ...(record.tokenName ? { tokenName: record.tokenName } : {}),
    },
    organization: record.organizationId,
    action: record.action,
    resource: { type: record.resourceType, id: record.resourceId },
    changes: record.changes,
  };
}

/**
 * {@link audit} of an action on one installation, filed under the installation's owner.
 *
 * @example
 * await auditInstallation(ctx, principal, id, 'webhook_secret.rotate');
 */
export async function auditInstallation(
  ctx: HostContext,
  principal: Principal,
  installationId: string,
  action: string,
  changes: Record<string, Json> = {},
): Promise<void> {
  const record = await ctx.storage.installations.get(installationId).catch(() => null);
  await audit(ctx, principal, installationEntry(action, installationId, record?.ownerOrganization, changes));
}

/**
 * The audit entry of an action on one installation whose owner the caller already knows.
 *
 * @example
 * await audit(ctx, principal, installationEntry('installation.delete', id, record.ownerOrganization, { integration }));
 */
export function installationEntry(
  action: string,
  installationId: string,
  owner: string | null | undefined,
  changes: Record<string, Json> = {},
): AuditEntry {
  return {
    action,
    resourceType: 'installation',
    resourceId: installationId,
    organizationId: owner ?? null,
    changes,
  };
}
