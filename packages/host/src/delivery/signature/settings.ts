import { DEFAULT_SIGNATURE_SCHEME, isSignatureScheme, type SignatureScheme } from '@platform/webhooks';
import type { DeliverySigning } from '../signing.js';

/** The webhook configuration keys of the signature settings (platform-manifest.yaml, both places). */
export const SIGNING_KEYS = { scheme: 'signature_scheme', bothHeaders: 'signature_both_headers' } as const;

/** An installation's signature settings, read from its configuration. */
export interface SigningSettings {
  scheme: SignatureScheme;
  bothHeaders: boolean;
}

/**
 * The signature settings of a webhook configuration (pure): `signature_scheme` (absent or not a scheme:
 * `platform`) and `signature_both_headers` (true only with another scheme than `platform`).
 *
 * @example
 * signingSettingsOf({ url, signature_scheme: 'ed25519', signature_both_headers: true });
 * // { scheme: 'ed25519', bothHeaders: true }
 */
export function signingSettingsOf(configuration: Record<string, unknown>): SigningSettings {
  const value = configuration[SIGNING_KEYS.scheme];
  const scheme = isSignatureScheme(value) ? value : DEFAULT_SIGNATURE_SCHEME;
  return { scheme, bothHeaders: scheme !== 'platform' && configuration[SIGNING_KEYS.bothHeaders] === true };
}

/**
 * How a delivery of the installation is signed (pure): its settings and, for `ed25519`, its valid private
 * keys (two during a rotation; none stored yet: the attempt fails as `signing_error` rather than going out
 * unsigned).
 *
 * @example
 * deliverySigningOf(read.configuration, read.signingKeys); // { scheme: 'platform', bothHeaders: false, privateKeys: [] }
 */
export function deliverySigningOf(
  configuration: Record<string, unknown>,
  signingKeys: readonly string[],
): DeliverySigning {
  const settings = signingSettingsOf(configuration);
  return { ...settings, privateKeys: settings.scheme === 'ed25519' ? [...signingKeys] : [] };
}

/**
 * The configuration errors of the signature settings, per key, with what to do (pure): both header sets
 * need a scheme to migrate to.
 *
 * @example
 * signingRules({ signature_both_headers: true });
 * // [{ key: 'signature_both_headers', message: 'sends X-Platform-Signature beside … choose standard-webhooks or ed25519 …' }]
 */
export function signingRules(
  configuration: Record<string, unknown>,
): Array<{ key: string; message: string }> {
  // A scheme outside the list is the manifest's `enum` to refuse (validateConfiguration).
  const scheme = configuration[SIGNING_KEYS.scheme];
  const both = configuration[SIGNING_KEYS.bothHeaders];
  if (both === true && (scheme ?? DEFAULT_SIGNATURE_SCHEME) === 'platform') {
    return [
      {
        key: SIGNING_KEYS.bothHeaders,
        message:
          'sends X-Platform-Signature beside the Standard Webhooks headers while receivers migrate: choose standard-webhooks or ed25519 as the signature scheme, or turn it off',
      },
    ];
  }
  return [];
}
