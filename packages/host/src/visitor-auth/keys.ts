import { createHmac } from 'node:crypto';
import type { HostContext } from '../services/context.js';

/**
 * A site installation's signing secret (`environment.signingSecrets.siteInstallation`): derived, never
 * stored, from the host's installation-token key (the `installation_token_key` setting every host of a
 * deployment shares) and the installation id, so every host derives the same one and no other
 * installation can compute it. `pvs_` + 43 base64url characters.
 *
 * @example
 * const secret = siteSigningSecret(ctx, 'inst_1');
 */
export function siteSigningSecret(ctx: Pick<HostContext, 'tokens'>, installationId: string): string {
  // `:` never appears in an installation id, so this input is no installation's token.
  const base = ctx.tokens.issue(`visitor:site:${installationId}`);
  return `pvs_${createHmac('sha256', base).update('site installation signing secret').digest('base64url')}`;
}

/**
 * The key that signs visitor session cookies, derived like {@link siteSigningSecret}: one per deployment.
 *
 * @example
 * const key = visitorSessionKey(ctx);
 */
export function visitorSessionKey(ctx: Pick<HostContext, 'tokens'>): string {
  const base = ctx.tokens.issue('visitor:session');
  return createHmac('sha256', base).update('visitor session key').digest('base64url');
}
