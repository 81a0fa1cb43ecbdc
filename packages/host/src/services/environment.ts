import type { IntegrationEnvironment } from '@platform/api-client';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { type HostContext, publicEndpoint } from './context.js';

/**
 * The normalized `environment` (docs/contracts.md "IntegrationEnvironment") posted with every envelope: API endpoint, a token
 * scoped to this installation, the integration (with the installation's public endpoint),
 * secrets, and the organization plus space/site installation shapes.
 *
 * @example
 * const environment = buildEnvironment(ctx, integration, installation);
 */
export function buildEnvironment(
  ctx: HostContext,
  integration: IntegrationRecord,
  installation: InstallationRecord,
): IntegrationEnvironment {
  const urls = { publicEndpoint: publicEndpoint(ctx, integration.name, installation.id) };
  const shared = {
    status: installation.status,
    configuration: installation.configuration,
    externalIds: installation.externalIds,
    urls,
  };
  return {
    apiEndpoint: ctx.baseUrl(),
    apiTokens: { installation: ctx.tokens.issue(installation.id) },
    integration: { name: integration.name, version: integration.version, title: integration.title, urls },
    secrets: integration.secrets,
    installation: {
      id: installation.id,
      target: installation.target,
      space_selection: installation.spaceSelection,
      ...shared,
    },
    ...(installation.target === 'space' && installation.spaceId
      ? { spaceInstallation: { space: installation.spaceId, ...shared } }
      : {}),
    ...(installation.target === 'site' && installation.siteId
      ? { siteInstallation: { site: installation.siteId, ...shared } }
      : {}),
  };
}
