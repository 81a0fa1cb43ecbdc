import { createHmac } from 'node:crypto';
import type { IntegrationEnvironment } from '@platform/api-client';
import type { installationTokens } from '../auth.js';
import type { InstallationRecord } from '../storage/index.js';
import { contentBase, type HostUrls } from '../urls.js';

/** What the keys are derived from: the host's installation-token issuer. */
type Tokens = { readonly tokens: ReturnType<typeof installationTokens> };

/**
 * A site installation's signing secret (`environment.signingSecrets.siteInstallation`): derived, never
 * stored, from the host's installation-token key (the `installation_token_key` setting every host of a
 * deployment shares) and the installation id, so every host derives the same one and no other
 * installation can compute it. `pvs_` + 43 base64url characters.
 *
 * @example
 * const secret = siteSigningSecret(ctx, 'inst_1');
 */
export function siteSigningSecret(ctx: Tokens, installationId: string): string {
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
export function visitorSessionKey(ctx: Tokens): string {
  const base = ctx.tokens.issue('visitor:session');
  return createHmac('sha256', base).update('visitor session key').digest('base64url');
}

/**
 * Where the host serves a site to its visitors, on the content origin (docs/visitor-authentication.md).
 *
 * @example
 * siteUrl(ctx, 'site_1'); // 'http://127.0.0.1:8081/sites/site_1'
 */
export function siteUrl(ctx: HostUrls, siteId: string): string {
  return `${contentBase(ctx)}/sites/${encodeURIComponent(siteId)}`;
}

/**
 * The site fields of an environment: for a site installation, `siteInstallation.urls.published` (the
 * site's URL) and `signingSecrets.siteInstallation` (what the integration signs visitor claims with);
 * `signingSecrets: {}` otherwise.
 *
 * @example
 * return withSiteFields(ctx, installation, environment);
 */
export function withSiteFields(
  ctx: HostUrls & Tokens,
  installation: Pick<InstallationRecord, 'id' | 'target' | 'siteId'>,
  environment: IntegrationEnvironment,
): IntegrationEnvironment {
  const site = environment.siteInstallation;
  if (installation.target !== 'site' || !installation.siteId || !site) {
    return { ...environment, signingSecrets: {} };
  }
  const published = siteUrl(ctx, installation.siteId);
  return {
    ...environment,
    siteInstallation: { ...site, urls: { ...site.urls, published } },
    signingSecrets: { siteInstallation: siteSigningSecret(ctx, installation.id) },
  };
}
