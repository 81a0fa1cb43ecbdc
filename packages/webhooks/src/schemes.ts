/**
 * How a webhook installation signs its deliveries (docs/contracts.md "Signature schemes"):
 * `platform` (the default: `X-Platform-Signature: t=…,v1=<hex>`), `standard-webhooks` (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64>`) or `ed25519` (the same headers with
 * `v1a,<base64>`, verified with the installation's public key).
 *
 * @example
 * SIGNATURE_SCHEMES.includes(value as SignatureScheme);
 */
export const SIGNATURE_SCHEMES = ['platform', 'standard-webhooks', 'ed25519'] as const;

/** One of {@link SIGNATURE_SCHEMES}. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** The scheme an installation uses when its configuration names none. */
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'platform';

/**
 * Whether a value names a scheme.
 *
 * @example
 * isSignatureScheme('ed25519'); // true
 */
export function isSignatureScheme(value: unknown): value is SignatureScheme {
  return typeof value === 'string' && (SIGNATURE_SCHEMES as readonly string[]).includes(value);
}
