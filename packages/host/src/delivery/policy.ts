import type { Classification } from '../jobs/policy.js';

/**
 * How webhook delivery classifies one attempt's outcome (docs/contracts.md "Retry policy"); what follows
 * from the classification (retry delays, final states) is the jobs' policy, `jobs/policy.ts`. Pure.
 */

/**
 * The outcome of one attempt: an HTTP status, a destination's acknowledgement (a broker confirmed the
 * message), or a network-level error code.
 */
export type AttemptOutcome = { statusCode: number } | { acknowledged: true } | { error: { code: string } };

/**
 * Error codes of network failures that are worth retrying; `auth_error` (an endpoint's OAuth2 token
 * endpoint failed or refused) too: the token endpoint may be down for a moment like the receiver; and
 * `broker_unavailable` (a message broker destination could not be reached), retried like an HTTP 503.
 */
export const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns_error',
  'tls_error',
  'network_error',
  'auth_error',
  'broker_unavailable',
]);

/**
 * Classifies one attempt: 2xx succeeded, and so is a destination's acknowledgement (`acknowledged: true`); 429 and 5xx retry; 1xx, 3xx and other 4xx failed
 * (redirects are not followed); retryable network errors (timeout, refused, reset, DNS, TLS,
 * other network errors) retry; `target_blocked` and any unknown error code failed.
 *
 * @example
 * classify({ statusCode: 503 }); // 'retry'
 * classify({ error: { code: 'target_blocked' } }); // 'failed'
 */
export function classify(outcome: AttemptOutcome): Classification {
  if ('acknowledged' in outcome) return outcome.acknowledged === true ? 'succeeded' : 'failed';
  if ('statusCode' in outcome) {
    const status = outcome.statusCode;
    if (status >= 200 && status < 300) return 'succeeded';
    if (status === 429 || (status >= 500 && status < 600)) return 'retry';
    return 'failed';
  }
  return RETRYABLE_ERROR_CODES.has(outcome.error.code) ? 'retry' : 'failed';
}
