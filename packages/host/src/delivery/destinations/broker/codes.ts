/**
 * The error codes a broker destination's attempt can end with, besides the network codes it shares
 * with HTTP (`connection_refused`, `connection_reset`, `timeout`, `dns_error`, `tls_error`,
 * `target_blocked`, `network_error`). Listed once here; `delivery/errors.ts` declares them in
 * `AttemptErrorCode`.
 *
 * - `broker_unavailable`: the broker is reachable but cannot take the message now (the connection
 *   closed under the publish, a negative publisher confirm, a stream that is not ready, Redis
 *   loading or out of memory). Worth retrying, like an HTTP 503.
 * - `broker_rejected`: the broker refused the message or the connection for a reason a retry would
 *   not change (wrong credentials, no permission, no such exchange, no stream for the subject, a
 *   key of another type). Not retried, like an HTTP 4xx; redeliver once the broker is fixed.
 *
 * @example
 * if (result.error?.code === BROKER_ERROR_CODES.unavailable) scheduleRetry();
 */
export const BROKER_ERROR_CODES = {
  unavailable: 'broker_unavailable',
  rejected: 'broker_rejected',
} as const;

/** One of {@link BROKER_ERROR_CODES}. */
export type BrokerErrorCode = (typeof BROKER_ERROR_CODES)[keyof typeof BROKER_ERROR_CODES];
