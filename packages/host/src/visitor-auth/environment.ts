import type { IntegrationEnvironment } from '@platform/api-client';
import type { HostContext } from '../services/context.js';
import { contentBase } from '../services/context.js';
import type { InstallationRecord } from '../storage/index.js';
import { siteSigningSecret } from './keys.js';

/**
 * Where the host serves a site to its visitors, on the content origin (docs/visitor-authentication.md).
 *
 * @example
 * siteUrl(ctx, 'site_1'); // 'http://127.0.0.1:8081/sites/site_1'
 */
export function siteUrl(ctx: Pick<HostContext, 'baseUrl' | 'contentBaseUrl'>, siteId: string): string {
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
  ctx: Pick<HostContext, 'baseUrl' | 'contentBaseUrl' | 'tokens'>,
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
