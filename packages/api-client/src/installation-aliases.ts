import type {
  InstallationConfiguration,
  OrganizationInstallation,
  SiteInstallation,
  SpaceInstallation,
} from './environment';

/*
 * The names integration authors know the installation shapes by (see docs/contentkit.md,
 * "Porting"): aliases of the shapes in ./environment.ts, never different types.
 */

/** The installation of the integration (organization level). @example const i: IntegrationInstallation | undefined = context.environment.installation; */
export type IntegrationInstallation = OrganizationInstallation;
/** A space installation. @example const s: IntegrationSpaceInstallation | undefined = context.environment.spaceInstallation; */
export type IntegrationSpaceInstallation = SpaceInstallation;
/** A site installation. @example const s: IntegrationSiteInstallation | undefined = context.environment.siteInstallation; */
export type IntegrationSiteInstallation = SiteInstallation;
/** Configuration values of an installation. @example const c: IntegrationInstallationConfiguration = { channel: '#docs' }; */
export type IntegrationInstallationConfiguration = InstallationConfiguration;
