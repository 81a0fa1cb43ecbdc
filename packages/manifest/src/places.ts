import {
  environmentUrls,
  type InstallationStatus,
  type InstallationTarget,
  type InstallationUrls,
  type IntegrationEnvironment,
  type SpaceSelection,
} from '@platform/api-client';
import type { ConfigurationPlaceName, Manifest } from './schema.js';

type Configurations = Pick<Manifest, 'configurations'>;

/**
 * Which `configurations` section holds the settings of an installation of `target`
 * (docs/contracts.md "Manifest"): organization and space installations use `account`; site
 * installations use `site`, or `space` when the manifest declares `space` settings and no `site`
 * ones (integrations written when page scripts were set up per space; docs/published-scripts.md
 * "Settings and environment of a site installation").
 *
 * @example
 * settingsPlace({ configurations: { space: { properties: {} } } }, 'site'); // 'space'
 */
export function settingsPlace(manifest: Configurations, target: InstallationTarget): ConfigurationPlaceName {
  if (target !== 'site') return 'account';
  const configurations = manifest.configurations;
  return configurations?.site === undefined && configurations?.space !== undefined ? 'space' : 'site';
}

/**
 * What {@link installationShapes} needs to know of an installation (the host's `InstallationRecord` has it).
 * @example const facts: InstallationFacts = { id: 'inst_1', integrationName: 'hello', target: 'site', spaceId: null, siteId: 'site_1', status: 'active', configuration: {}, externalIds: [], spaceSelection: { mode: 'selected', spaces: [] } };
 */
export interface InstallationFacts {
  id: string;
  /** Name of the installed integration (`integration` of the space and site shapes). */
  integrationName: string;
  target: InstallationTarget;
  /** The space of a space installation. */
  spaceId: string | null;
  /** The site of a site installation. */
  siteId: string | null;
  status: InstallationStatus;
  configuration: Record<string, unknown>;
  externalIds: string[];
  spaceSelection: SpaceSelection;
}

/**
 * The installation shapes of an envelope's `environment`.
 * @example const { siteInstallation }: InstallationShapes = installationShapes(manifest, facts, urls);
 */
export type InstallationShapes = Pick<
  IntegrationEnvironment,
  'installation' | 'spaceInstallation' | 'siteInstallation'
>;

/**
 * The installation shapes of the `environment` posted with an installation's envelopes
 * (docs/contracts.md "IntegrationEnvironment"): always `installation`; `spaceInstallation` for a
 * space installation; `siteInstallation` for a site installation, which also carries itself as
 * `spaceInstallation` (`space` empty: a site is not one space) when the manifest declares `space`
 * settings, for scripts that read their settings there (docs/published-scripts.md).
 *
 * @example
 * const shapes = installationShapes(manifest, record, { publicEndpoint });
 * shapes.siteInstallation?.configuration;
 */
export function installationShapes(
  manifest: Configurations,
  installation: InstallationFacts,
  urls: InstallationUrls,
): InstallationShapes {
  const shared = {
    status: installation.status,
    configuration: installation.configuration,
    externalIds: installation.externalIds,
    urls: environmentUrls(urls),
  };
  // What a space or site installation says of the installation it belongs to.
  const owner = { integration: installation.integrationName, installation: installation.id };
  const site = installation.target === 'site' && installation.siteId ? installation.siteId : undefined;
  const space =
    installation.target === 'space' && installation.spaceId
      ? installation.spaceId
      : site !== undefined && manifest.configurations?.space !== undefined
        ? (installation.spaceId ?? '')
        : undefined;
  return {
    installation: {
      id: installation.id,
      target: installation.target,
      space_selection: installation.spaceSelection,
      ...shared,
    },
    ...(space !== undefined ? { spaceInstallation: { space, ...owner, ...shared } } : {}),
    ...(site !== undefined ? { siteInstallation: { site, ...owner, ...shared } } : {}),
  };
}
