/**
 * Status of an installation (docs/contracts.md "Installation status"): `pending` until its
 * configuration validates against the manifest, then `active`; `paused` when suspended.
 *
 * @example
 * const s: InstallationStatus = 'active';
 */
export type InstallationStatus = 'pending' | 'active' | 'paused';

/**
 * Where an installation lives.
 *
 * @example
 * const t: InstallationTarget = 'space';
 */
export type InstallationTarget = 'organization' | 'space' | 'site';

/**
 * Values of an installation's configuration, as set by users through the manifest
 * `configurations` properties (plus `oauth_credentials` saved by the OAuth handler).
 *
 * @example
 * const c: InstallationConfiguration = { channel: 'general', oauth_credentials: { access_token: 'x' } };
 */
export type InstallationConfiguration = Record<string, unknown>;

/**
 * URLs of an installation.
 *
 * @example
 * const u: InstallationUrls = { publicEndpoint: 'https://host/v1/integrations/hello/installations/inst_1/public' };
 */
export interface InstallationUrls {
  /** The installation's public HTTPS endpoint: every path below it reaches the integration's `fetch`. */
  publicEndpoint: string;
}

/**
 * URLs of an installation as its `environment` carries them: the public endpoint, and the same
 * endpoint under the name integrations written for the content origin read,
 * `publicContentEndpoint` (docs/first-integration.md "Environment"). Both are served on the host's
 * content origin (an origin of its own, never the API's), so a `webframe` pointed at either runs
 * away from the dashboard's token.
 *
 * @example
 * const frame = new URL(environment.integration.urls.publicContentEndpoint);
 * frame.searchParams.set('v', environment.integration.version);
 */
export interface EnvironmentUrls extends InstallationUrls {
  /** Where the integration's content is served: its `fetch`, on the content origin. */
  publicContentEndpoint: string;
}

/**
 * The environment's URLs for a public endpoint: `publicContentEndpoint` is that endpoint too.
 *
 * @example
 * environmentUrls({ publicEndpoint: 'https://c.example/p' }).publicContentEndpoint; // 'https://c.example/p'
 */
export function environmentUrls(urls: InstallationUrls & Partial<EnvironmentUrls>): EnvironmentUrls {
  return { ...urls, publicContentEndpoint: urls.publicContentEndpoint ?? urls.publicEndpoint };
}

/**
 * Which spaces an organization installation covers (`space_selection`, docs/contracts.md "IntegrationEnvironment").
 *
 * @example
 * const s: SpaceSelection = { mode: 'selected', spaces: ['spc_1'] };
 */
export interface SpaceSelection {
  /** `all`: every space of the organization; `selected`: only those in `spaces`. */
  mode: 'all' | 'selected';
  /** Ids of the selected spaces (empty when `mode` is `all`). */
  spaces: string[];
}

/**
 * The organization-level installation (docs/contracts.md "IntegrationEnvironment"); present for every installation.
 *
 * @example
 * const i: OrganizationInstallation = {
 *   id: 'inst_1', target: 'organization', status: 'active', configuration: {}, externalIds: [],
 *   space_selection: { mode: 'all', spaces: [] }, urls: environmentUrls({ publicEndpoint: 'https://host/p' }),
 * };
 */
export interface OrganizationInstallation {
  /** Installation id (`inst_...`). */
  id: string;
  /** Target of the installation. */
  target: InstallationTarget;
  /** Current status. */
  status: InstallationStatus;
  /** Custom configuration for the organization. */
  configuration: InstallationConfiguration;
  /** External ids assigned by the integration. */
  externalIds: string[];
  /** Whether all spaces or selected spaces are used. */
  space_selection: SpaceSelection;
  /** URLs of the installation. */
  urls: EnvironmentUrls;
}

/**
 * A space installation (present only when the installation targets a space).
 *
 * @example
 * const s: SpaceInstallation = { space: 'spc_1', integration: 'hello', installation: 'inst_1', status: 'active', configuration: {}, externalIds: [], urls: environmentUrls({ publicEndpoint: 'https://host/p' }) };
 */
export interface SpaceInstallation {
  /** Id of the space where the integration is installed. */
  space: string;
  /** Name of the installed integration (`integration.name`). */
  integration: string;
  /** Id of the installation this space belongs to (`installation.id`). */
  installation: string;
  /** Status of this space installation. */
  status: InstallationStatus;
  /** Custom configuration variables for the space. */
  configuration: InstallationConfiguration;
  /** External identifiers. */
  externalIds: string[];
  /** URLs of the installation. */
  urls: EnvironmentUrls;
}

/**
 * A site installation (present only when the installation targets a site).
 *
 * @example
 * const s: SiteInstallation = { site: 'site_1', integration: 'hello', installation: 'inst_1', status: 'pending', configuration: {}, externalIds: [], urls: environmentUrls({ publicEndpoint: 'https://host/p' }) };
 */
export interface SiteInstallation {
  /** Id of the site where the integration is installed. */
  site: string;
  /** Name of the installed integration (`integration.name`). */
  integration: string;
  /** Id of the installation this site belongs to (`installation.id`). */
  installation: string;
  /** Status of this site installation. */
  status: InstallationStatus;
  /** Custom configuration variables for the site. */
  configuration: InstallationConfiguration;
  /** External identifiers. */
  externalIds: string[];
  /**
   * URLs of the installation; `published`: where the host serves the site to its visitors
   * (`{content origin}/sites/{siteId}`, docs/visitor-authentication.md).
   */
  urls: EnvironmentUrls & { published?: string };
}

/**
 * Secrets the host shares with the integration to sign what it hands back (docs/visitor-authentication.md).
 *
 * @example
 * const s: SigningSecrets = { siteInstallation: 'pvs_...' };
 */
export interface SigningSecrets {
  /**
   * A site installation's secret: the integration signs a visitor's claims with it (a JWT, HS256) and
   * the host verifies them. Present for site installations only.
   */
  siteInstallation?: string;
}

/**
 * Details about the integration itself.
 *
 * @example
 * const i: IntegrationInfo = { name: 'hello', version: '1.0.0', title: 'Hello', urls: environmentUrls({ publicEndpoint: 'https://host/p' }), externalLinks: [] };
 */
export interface IntegrationInfo {
  /** Unique name from the manifest. */
  name: string;
  /** Published version of the integration bundle. */
  version: string;
  /** Display name from the manifest. */
  title: string;
  /**
   * URLs of the integration: `publicEndpoint` (and `publicContentEndpoint`, the same URL) is the
   * current installation's public endpoint;
   * `icon`, when the integration's manifest `icon` was uploaded, where the host serves that image
   * (e.g. for `<image source={{ url: environment.integration.urls.icon }} />`).
   */
  urls: EnvironmentUrls & { icon?: string };
  /**
   * The manifest's `externalLinks` (documentation, support...): always a list in a handler's
   * `context.environment` (the runtime fills `[]`), optional only for hosts and tests that build one.
   */
  externalLinks?: Array<{ label: string; url: string }>;
}

/**
 * Tokens for the host HTTP API.
 *
 * @example
 * const t: ApiTokens = { installation: 'pit_abc' };
 */
export interface ApiTokens {
  /** Bearer token scoped to this installation: it reads and edits only its own installation. */
  installation: string;
}

/**
 * The `environment` part of the envelope, exposed as `context.environment`
 * (docs/contracts.md). The runtime normalizes it: `secrets` is always an object, and
 * `configuration`/`externalIds` always exist on installation shapes that are present.
 *
 * @example
 * const url = environment.installation?.urls.publicEndpoint ?? environment.integration.urls.publicEndpoint;
 */
export interface IntegrationEnvironment {
  /** Base URL of the host HTTP API (e.g. `http://127.0.0.1:8080`). */
  apiEndpoint: string;
  /** Tokens for the host API. */
  apiTokens: ApiTokens;
  /** The integration being run. */
  integration: IntegrationInfo;
  /** Secrets declared by the manifest `secrets` key, name to value. */
  secrets: Record<string, string>;
  /** The installation (organization-level shape); absent only for calls not tied to one. */
  installation?: OrganizationInstallation;
  /** Present for space installations only. */
  spaceInstallation?: SpaceInstallation;
  /** Present for site installations only. */
  siteInstallation?: SiteInstallation;
  /** Secrets to sign what the host verifies (visitor claims); `{}` when the installation has none. */
  signingSecrets?: SigningSecrets;
}

/**
 * An installation as the host API returns it (`GET /v1/installations/{id}`).
 *
 * @example
 * const inst: Installation = await api.installations.get('inst_1');
 * if (inst.status === 'active') console.log(inst.configuration);
 */
export interface Installation {
  /** Installation id. */
  id: string;
  /** Name of the installed integration. */
  integration: string;
  /** Target of the installation. */
  target: InstallationTarget;
  /** Space id, for space installations. */
  space?: string;
  /** Site id, for site installations. */
  site?: string;
  /** Organization id, for organization installations. */
  organization?: string;
  /**
   * The organization that owns the installation (sees and manages it); absent when only the operator
   * does (made where the host knew no owner).
   */
  owner?: string;
  /** Current status. */
  status: InstallationStatus;
  /** Current configuration values. */
  configuration: InstallationConfiguration;
  /** What keeps the configuration from being valid (empty when the installation can be active). */
  configurationErrors: Array<{ key: string; message: string }>;
  /** External ids assigned by the integration. */
  externalIds: string[];
  /** URLs of the installation. */
  urls: InstallationUrls;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 time of the last change. */
  updatedAt: string;
}
