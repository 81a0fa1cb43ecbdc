import { findTargetBlocked } from '../net/fetch.js';

/** Error codes an attempt can end with (besides an HTTP status). */
export type AttemptErrorCode =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_error'
  | 'tls_error'
  | 'target_blocked'
  | 'network_error'
  | 'signing_error'
  | 'invalid_target'
  | 'target_unavailable'
  | 'auth_error'
  // Broker destinations (delivery/destinations/broker/codes.ts says what each means).
  | 'broker_unavailable'
  | 'broker_rejected';

/** A network-level failure of one attempt. `message` never carries the URL path, query or secrets. */
export interface AttemptError {
  code: AttemptErrorCode;
  message: string;
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|HOSTNAME_MISMATCH)/;

const BY_CODE: Record<string, AttemptErrorCode> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns_error',
  EAI_AGAIN: 'dns_error',
  EAI_FAIL: 'dns_error',
  EAI_NONAME: 'dns_error',
  EAI_NODATA: 'dns_error',
};

const DESCRIPTION: Record<AttemptErrorCode, string> = {
  timeout: 'The receiver did not answer in time',
  connection_refused: 'The receiver refused the connection',
  connection_reset: 'The connection was reset or closed by the receiver before it answered',
  dns_error: 'The receiver host name could not be resolved',
  tls_error: 'The TLS handshake with the receiver failed',
  target_blocked: 'The target was refused by the address policy',
  network_error: 'A network error occurred',
  signing_error: 'The request could not be signed',
  invalid_target: 'The webhook URL is not acceptable',
  target_unavailable: 'The webhook target no longer exists',
  auth_error: "The endpoint's OAuth2 access token could not be obtained",
  broker_unavailable: 'The broker could not take the message now',
  broker_rejected: 'The broker refused the message or the connection',
};

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Maps an error thrown while sending (undici, node:net, node:tls, dns, the address policy) to
 * an {@link AttemptError}. `timedOut` marks an abort caused by the attempt's own deadline.
 *
 * @example
 * toAttemptError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), false);
 * // { code: 'connection_refused', message: 'The receiver refused the connection (connect ECONNREFUSED 127.0.0.1:1)' }
 */
export function toAttemptError(error: unknown, timedOut: boolean, timeoutMs?: number): AttemptError {
  if (timedOut) {
    const limit = timeoutMs === undefined ? '' : ` (${timeoutMs} ms)`;
    return { code: 'timeout', message: `${DESCRIPTION.timeout}${limit}` };
  }
  const blocked = findTargetBlocked(error);
  if (blocked) return { code: 'target_blocked', message: blocked.message };
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const raw = codeOf(current);
    const code = raw === undefined ? undefined : TLS_CODE.test(raw) ? 'tls_error' : BY_CODE[raw];
    if (code) return { code, message: describe(code, current) };
    current = current instanceof Error ? current.cause : undefined;
  }
  return { code: 'network_error', message: describe('network_error', error) };
}

/** A fixed description of `code`, followed by the low-level message (which names no URL path). */
export function describe(code: AttemptErrorCode, error?: unknown): string {
  const detail = error instanceof Error && error.message ? ` (${error.message.slice(0, 300)})` : '';
  return `${DESCRIPTION[code]}${detail}`;
}
