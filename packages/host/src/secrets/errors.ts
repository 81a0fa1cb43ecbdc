/** Stable codes of {@link SecretsError}. */
export type SecretsErrorCode =
  /** A key given (PLATFORM_SECRETS_KEY, PLATFORM_SECRETS_OLD_KEYS, the key file) is not 32 bytes of base64 or hex. */
  | 'invalid_key'
  /** A sealed value names a key this host was not given. */
  | 'unknown_key'
  /** A sealed value does not decrypt under its key: altered, truncated, or a key with a clashing id. */
  | 'tampered'
  /** A value starts like a sealed one but is not `enc:v1:<keyId>:<iv>:<ciphertext>`. */
  | 'malformed';

/**
 * The one error class of the secrets layer. Messages name the key id and what to do, never a key or a
 * plaintext.
 *
 * @example
 * try { box.open(value); } catch (e) { if (isSecretsError(e) && e.code === 'unknown_key') ... }
 */
export class SecretsError extends Error {
  constructor(
    readonly code: SecretsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretsError';
  }
}

/** Whether `error` is a {@link SecretsError}. */
export function isSecretsError(error: unknown): error is SecretsError {
  return error instanceof SecretsError;
}
