import { environmentUrls, type IntegrationEnvironment } from '@platform/api-client';
import { installationShapes, type Manifest } from '@platform/manifest';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { integrationIconUrl, publicEndpoint } from '../urls.js';
import type { InvocationHost } from './port.js';
import { withSiteFields } from './site-fields.js';

/**
 * The normalized `environment` (docs/contracts.md "IntegrationEnvironment") posted with every envelope: API endpoint, a token
 * scoped to this installation, the integration (with the installation's public endpoint, also as
 * `publicContentEndpoint`: both on the content origin; and, when uploaded, the URL of its icon),
 * secrets, and the organization plus space/site installation shapes (`installationShapes` of
 * `@platform/manifest`; docs/published-scripts.md "Settings and environment of a site installation"), and for
 * a site installation the site's URL and signing secret (docs/visitor-authentication.md).
 *
 * @example
 * const environment = buildEnvironment(ctx, integration, installation);
 */
export function buildEnvironment(
  ctx: InvocationHost,
  integration: IntegrationRecord,
  installation: InstallationRecord,
): IntegrationEnvironment {
  const urls = environmentUrls({ publicEndpoint: publicEndpoint(ctx, integration.name, installation.id) });
  const icon = integrationIconUrl(ctx, integration);
  return withSiteFields(ctx, installation, {
    apiEndpoint: ctx.baseUrl(),
    apiTokens: { installation: ctx.tokens.issue(installation.id) },
    integration: {
      name: integration.name,
      version: integration.version,
      title: integration.title,
      urls: { ...urls, ...(icon ? { icon } : {}) },
      externalLinks: (integration.manifest as Pick<Manifest, 'externalLinks'>).externalLinks ?? [],
    },
    secrets: integration.secrets,
    ...installationShapes(integration.manifest as Pick<Manifest, 'configurations'>, installation, urls),
  });
}
