export {
  createSecretBox,
  generateKey,
  type KeyRing,
  keyIdOf,
  NO_KEY_BOX,
  parseKey,
  reveal,
  SEALED_PREFIX,
  type SecretBox,
} from './box.js';
export {
  configurationNeedsReseal,
  openConfiguration,
  SECRET_CONFIGURATION_KEYS,
  sealConfiguration,
} from './configuration.js';
export { isSecretsError, SecretsError, type SecretsErrorCode } from './errors.js';
export { type ResolvedKeyRing, resolveKeyRing, type SecretsKeySettings } from './keys.js';
