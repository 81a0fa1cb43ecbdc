import { HttpError, notFound } from '../errors.js';
import type { Principal } from './principal.js';

/** What deciding an installation needs to know; every read is done by the caller. */
export interface InstallFacts {
  principal: Principal;
  integration: { name: string; owner: string | null; visibility: string };
  /** Whether the request carried the integration's current install link (compared in constant time). */
  holdsInstallLink: boolean;
  target: 'space' | 'site' | 'organization';
  /** The space's or site's id, or the organization installed into (the request's, if any). */
  targetId: string | null;
  /** The directory's owner of the space or site (null: none recorded, or an organization target). */
  directoryOwner: string | null;
}

/** Who owns the new installation, or why it is refused. */
export type InstallDecision =
  | { ok: true; owner: string | null; organization: string | null }
  | { ok: false; error: HttpError };

/**
 * Whether a principal may install an integration there, and who owns the installation (pure; docs/security.md
 * "Organizations"). The operator installs anything anywhere, on behalf of the owner of the place. An
 * organization installs its own integrations, `public` ones, and `unlisted` ones whose install link it
 * holds, into spaces and sites the directory says it owns, or into itself. What it may not see answers 404.
 *
 * @example
 * decideInstall({ principal, integration: { name: 'hello', owner: 'acme', visibility: 'private' }, holdsInstallLink: false, target: 'space', targetId: 'sp1', directoryOwner: 'acme' });
 */
export function decideInstall(facts: InstallFacts): InstallDecision {
  const { principal, integration, target, targetId, directoryOwner } = facts;
  if (principal.kind === 'operator') {
    if (target === 'organization') return { ok: true, owner: targetId, organization: targetId };
    return { ok: true, owner: directoryOwner, organization: null };
  }
  if (principal.kind !== 'organization') {
    return {
      ok: false,
      error: new HttpError(403, 'forbidden', 'This needs the operator token or an organization token.'),
    };
  }
  const me = principal.organizationId;
  const mine = integration.owner === me;
  const allowed =
    mine ||
    integration.visibility === 'public' ||
    (integration.visibility === 'unlisted' && facts.holdsInstallLink);
  if (!allowed) {
    const hint =
      integration.visibility === 'unlisted' || integration.visibility === 'private'
        ? ' (an unlisted integration installs only with its install link: give it as `installLink`)'
        : '';
    return {
      ok: false,
      error: new HttpError(404, 'not_found', `Integration "${integration.name}" was not found${hint}.`),
    };
  }
  if (target === 'organization') {
    const organization = targetId ?? me;
    if (organization !== me) return { ok: false, error: notFound(`Organization "${organization}"`) };
    return { ok: true, owner: me, organization: me };
  }
  if (directoryOwner !== me) {
    return {
      ok: false,
      error: new HttpError(
        404,
        'not_found',
        `${target === 'space' ? 'Space' : 'Site'} "${targetId}" is not one of organization "${me}"'s ${target}s: an organization installs only into the spaces and sites the platform records as its own (PUT /v1/${target}s/{id}/owner, operator token).`,
      ),
    };
  }
  return { ok: true, owner: me, organization: null };
}
