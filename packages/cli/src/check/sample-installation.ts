import type { InstallationTarget, IntegrationEnvironment } from '@platform/api-client';
import {
  type ConfigurationPlaceName,
  configurationDefaults,
  installationShapes,
  type Manifest,
  sampleConfiguration,
  settingsPlace,
  validateConfiguration,
} from '@platform/manifest';

/**
 * Ids of the sample installation, space and site `platform check` calls the script with.
 * @example const event = { type: HOST_EVENT.fetchPublishedScript, installationId: CHECK_IDS.installation, siteId: CHECK_IDS.site };
 */
export const CHECK_IDS = { installation: 'inst_check', space: 'space_check', site: 'site_check' } as const;

/**
 * `environment.integration.urls.icon` during `platform check` when the manifest names an `icon`.
 * @example const urls = { publicEndpoint, ...(manifest.icon ? { icon: CHECK_ICON_URL } : {}) };
 */
export const CHECK_ICON_URL = 'http://127.0.0.1/v1/assets/check-icon';

/**
 * An installation `platform check` runs the script as: its environment and configuration.
 * @example const { environment, configuration }: SampleInstallation = sampleInstallation(manifest, 'site', base);
 */
export interface SampleInstallation {
  target: InstallationTarget;
  /** The `configurations` section its settings come from (`settingsPlace`). */
  place: ConfigurationPlaceName;
  /** `sampleConfiguration` of that section. */
  configuration: Record<string, unknown>;
  /**
   * Required keys the sample leaves unset (OAuth buttons: only the integration's own flow sets them);
   * the installation is then `pending`, as the host would mark it.
   */
  unsetKeys: string[];
  /** Keys whose value check made up (required, no `default`): `sample`, `https://example.com/sample`... */
  madeUpKeys: string[];
  /** The configuration screen that saves this installation's settings, if the place has one. */
  screen?: string;
  environment: IntegrationEnvironment;
}

/**
 * The installation of `target` that `platform check` runs the script as, shaped like the host's
 * (`installationShapes`): configured with the sample of its settings (`sampleConfiguration`;
 * docs/published-scripts.md "`platform check`"); active, or `pending` while a required key the
 * sample cannot set (an OAuth button) is unset.
 *
 * @example
 * const site = sampleInstallation(manifest, 'site', testEnvironment());
 * site.environment.siteInstallation?.configuration; // { tracking_id: 'sample' }
 */
export function sampleInstallation(
  manifest: Manifest,
  target: InstallationTarget,
  base: IntegrationEnvironment,
): SampleInstallation {
  const place = settingsPlace(manifest, target);
  const configuration = sampleConfiguration(manifest, place);
  const unsetKeys = validateConfiguration(manifest, place, configuration).errors.map((e) => e.key);
  const defaults = configurationDefaults(manifest, place);
  const madeUpKeys = Object.keys(configuration).filter((key) => !(key in defaults));
  const screen = manifest.configurations?.[place]?.componentId;
  const shapes = installationShapes(
    manifest,
    {
      id: CHECK_IDS.installation,
      integrationName: base.integration.name,
      target,
      spaceId: target === 'space' ? CHECK_IDS.space : null,
      siteId: target === 'site' ? CHECK_IDS.site : null,
      status: unsetKeys.length > 0 ? 'pending' : 'active',
      configuration,
      externalIds: [],
      spaceSelection: {
        mode: target === 'organization' ? 'all' : 'selected',
        spaces: target === 'space' ? [CHECK_IDS.space] : [],
      },
    },
    base.integration.urls,
  );
  const environment: IntegrationEnvironment = { ...base, ...shapes };
  if (!shapes.spaceInstallation) delete environment.spaceInstallation;
  if (!shapes.siteInstallation) delete environment.siteInstallation;
  return {
    target,
    place,
    configuration,
    unsetKeys,
    madeUpKeys,
    ...(screen ? { screen } : {}),
    environment,
  };
}

/**
 * The installation `platform check` sets up and renders blocks in: the manifest's `target`
 * (`organization` for `all` or none).
 *
 * @example
 * checkTarget({ target: 'site' } as Manifest); // 'site'
 */
export function checkTarget(manifest: Pick<Manifest, 'target'>): InstallationTarget {
  return manifest.target === 'site' || manifest.target === 'space' ? manifest.target : 'organization';
}

/**
 * The installation `platform check` renders blocks in: a block lives in a space's document, so a
 * space installation unless the manifest's `target` is only `organization` or `site`.
 *
 * @example
 * blockTarget({ target: 'all' } as Manifest); // 'space'
 */
export function blockTarget(manifest: Pick<Manifest, 'target'>): InstallationTarget {
  return manifest.target === 'site' || manifest.target === 'organization' ? manifest.target : 'space';
}

/**
 * The configuration screens the host shows (`configurations.<place>.componentId`), each with the
 * installation it is shown for: `account` for an organization installation (space installations
 * use it too), and the place a site installation uses (`settingsPlace`: `site`, or `space` when
 * only that is declared). A `space` screen beside `site` settings is never shown, so not rendered.
 *
 * @example
 * for (const { place, target, componentId } of shownScreens(manifest)) render(componentId, target);
 */
export function shownScreens(
  manifest: Manifest,
): Array<{ place: ConfigurationPlaceName; target: InstallationTarget; componentId: string }> {
  const shown: Array<{ place: ConfigurationPlaceName; target: InstallationTarget }> = [
    { place: 'account', target: checkTarget(manifest) === 'space' ? 'space' : 'organization' },
    { place: settingsPlace(manifest, 'site'), target: 'site' },
  ];
  return shown.flatMap(({ place, target }) => {
    const componentId = manifest.configurations?.[place]?.componentId;
    return componentId ? [{ place, target, componentId }] : [];
  });
}
