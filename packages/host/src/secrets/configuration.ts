import { reveal, type SecretBox } from './box.js';

/**
 * Keys of an installation's configuration whose values are secrets, sealed at rest (the rest of the
 * configuration stays plain JSON: routing and the dashboard read it). `oauth_credentials` is where
 * `createOAuthHandler` keeps an installation's tokens (docs/contracts.md); `destination` is a webhook
 * installation's broker destination, whose settings carry the broker's credentials (docs/destinations.md). A new secret kept in the
 * configuration is added here (src/secrets/README.md).
 */
export const SECRET_CONFIGURATION_KEYS: readonly string[] = ['oauth_credentials', 'destination'];

/**
 * The configuration as stored: each {@link SECRET_CONFIGURATION_KEYS} value replaced by its JSON,
 * sealed (a value sealed already under the current key is kept).
 *
 * @example
 * sealConfiguration(box, { url: 'https://x', oauth_credentials: { access_token: 't' } });
 * // { url: 'https://x', oauth_credentials: 'enc:v1:…' }
 */
export function sealConfiguration(
  box: SecretBox,
  configuration: Record<string, unknown>,
): Record<string, unknown> {
  if (!box.currentKeyId) return configuration; // a storage without a key (NO_KEY_BOX) stores it as given
  let sealed: Record<string, unknown> | undefined;
  for (const key of SECRET_CONFIGURATION_KEYS) {
    if (!Object.hasOwn(configuration, key) || configuration[key] === undefined) continue;
    const value = configuration[key];
    if (typeof value === 'string' && box.isSealed(value) && !box.needsReseal(value)) continue;
    const plain = typeof value === 'string' && box.isSealed(value) ? box.open(value) : JSON.stringify(value);
    sealed ??= { ...configuration };
    sealed[key] = box.seal(plain);
  }
  return sealed ?? configuration;
}

/**
 * The configuration in clear: each sealed {@link SECRET_CONFIGURATION_KEYS} value opened and parsed (a
 * plaintext value from before encryption at rest is returned as it is). A storage without a key
 * (`NO_KEY_BOX`) sees the sealed values as stored.
 *
 * @example
 * openConfiguration(box, stored).oauth_credentials; // { access_token: 't' }
 */
export function openConfiguration(
  box: SecretBox,
  configuration: Record<string, unknown>,
): Record<string, unknown> {
  if (!box.currentKeyId) return configuration; // without a key: the sealed values as stored (what a dump shows)
  let opened: Record<string, unknown> | undefined;
  for (const key of SECRET_CONFIGURATION_KEYS) {
    const value = configuration[key];
    if (typeof value !== 'string' || !box.isSealed(value)) continue;
    opened ??= { ...configuration };
    opened[key] = JSON.parse(reveal(box, value)) as unknown;
  }
  return opened ?? configuration;
}

/** Whether the stored configuration has a secret value to (re)seal: plaintext, or under another key. */
export function configurationNeedsReseal(box: SecretBox, configuration: Record<string, unknown>): boolean {
  if (!box.currentKeyId) return false;
  return SECRET_CONFIGURATION_KEYS.some((key) => {
    const value = configuration[key];
    if (value === undefined) return false;
    return typeof value !== 'string' || !box.isSealed(value) || box.needsReseal(value);
  });
}
