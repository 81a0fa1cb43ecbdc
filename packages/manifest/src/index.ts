export { type AssetInfo, type AssetRole, checkAsset, MAX_ASSET_BYTES, manifestAssets } from './assets.js';
export {
  type ConfigurationCheck,
  type ConfigurationError,
  configurationDefaults,
  sampleConfiguration,
  sampleString,
  validateConfiguration,
} from './configuration.js';
export { cspSourceProblem, parseHostSource } from './csp.js';
export { manifestForEnv, type PublishedManifestOptions, publishedManifestText } from './envs.js';
export {
  InvalidSecretExpressionError,
  ManifestError,
  ManifestNotFoundError,
  MissingSecretEnvError,
} from './errors.js';
export { readAssetFiles } from './files.js';
export { formatIssues, formatPath, type Issue } from './issues.js';
export { MANIFEST_SCHEMA_ID, manifestJsonSchema } from './json-schema.js';
export { loadManifest, MANIFEST_FILE } from './load.js';
export { type ManifestResult, type ParseOptions, parseManifest } from './parse.js';
export {
  type InstallationFacts,
  type InstallationShapes,
  installationShapes,
  settingsPlace,
} from './places.js';
export {
  type ConfigurationPlace,
  type ConfigurationPlaceName,
  type ConfigurationProperty,
  type Manifest,
  manifestSchema,
  URL_PATTERN_RE,
} from './schema.js';
export {
  CATEGORIES,
  currentScopeName,
  EVENT_SCOPES,
  INTERNAL_SCOPES,
  renameScopes,
  SCOPE_ALIASES,
  SCOPES,
  type Scope,
  type ScopedEventType,
  VISIBILITIES,
} from './scopes.js';
export { parseSecretValue, resolveSecrets, type SecretPart } from './secrets.js';
export { closest, didYouMean } from './suggest.js';
export { CSP_DIRECTIVES, cspDirectives, TARGETS } from './targets.js';
