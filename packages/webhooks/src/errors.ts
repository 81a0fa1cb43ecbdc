/** Stable codes of {@link WebhookVerificationError}. */
export type WebhookVerificationErrorCode =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'timestamp_out_of_tolerance'
  | 'invalid_body';

/**
 * A webhook failed verification. `code` is stable (switch on it); `message` explains the problem to a
 * person and never contains a secret or an expected digest. `status` is the HTTP status a receiver
 * answers with (401 for signature problems, 400 for a signed body that is not a JSON event).
 *
 * @example
 * try {
 *   await verify(rawBody, req.headers['x-platform-signature'], secret);
 * } catch (err) {
 *   if (err instanceof WebhookVerificationError) console.warn(err.code, err.message);
 *   else throw err;
 * }
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;
  readonly status: number;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
    this.status = code === 'invalid_body' ? 400 : 401;
  }
}

/**
 * The library was called with an unusable setting (no secret, negative tolerance, ...): a programming
 * or deployment error, not a bad request. `code` is always `invalid_configuration`.
 *
 * @example
 * createWebhookHandler({ secret: '', onEvent }); // throws WebhookConfigurationError
 */
export class WebhookConfigurationError extends Error {
  override readonly name = 'WebhookConfigurationError';
  readonly code = 'invalid_configuration' as const;
}
