/**
 * Retry policy of webhook deliveries (docs/contracts.md "Retry policy"). Pure functions.
 */

/** A retryable failure is retried at most this many times (4 attempts in total). */
export const MAX_RETRIES = 3;

/** Base delay before retry 1; doubles for each later retry. */
export const BASE_DELAY_MS = 1000;

/** The retry windows are [base, base × (1 + JITTER_RATIO)]. */
export const JITTER_RATIO = 0.1;

/**
 * Share of each window the due time is drawn from: the first half. The second half (50, 100, 200 ms) is
 * left for what happens between the due time and the request reaching the receiver (timer, claim,
 * signing, a pooled socket, the network, a busy machine), so the request ARRIVES inside the window, as
 * the subscriber measures it. (With 25 ms left, a loaded 2-core machine let ~1-5% arrive late.)
 */
export const DRAWN_SHARE = 0.5;

/** Final states of a delivery (of one attempt series). */
export type FinalState = 'succeeded' | 'failed' | 'exhausted';

/** What one attempt's outcome means for the delivery. */
export type Classification = 'succeeded' | 'retry' | 'failed';

/** The outcome of one attempt: an HTTP status, or a network-level error code. */
export type AttemptOutcome = { statusCode: number } | { error: { code: string } };

/** The next step after an attempt: a final state, or another attempt after `retryInMs`. */
export type Decision = { state: FinalState } | { retryInMs: number };

/**
 * Error codes of network failures that are worth retrying; `auth_error` (an endpoint's OAuth2 token
 * endpoint failed or refused) too: the token endpoint may be down for a moment like the receiver.
 */
export const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns_error',
  'tls_error',
  'network_error',
  'auth_error',
]);

/**
 * Delay in ms before retry `retry` (1, 2 or 3): `1000 × 2^(retry-1)` plus a jitter drawn
 * uniformly from the first half ({@link DRAWN_SHARE}) of the window's 10%: 1000–1050, 2000–2100,
 * 4000–4200 ms, inside the windows 1.0–1.1 s, 2.0–2.2 s, 4.0–4.4 s with 50 / 100 / 200 ms to arrive.
 *
 * @example
 * nextAttemptDelay(1, () => 0); // 1000
 * nextAttemptDelay(3, () => 0.5); // 4100
 */
export function nextAttemptDelay(retry: number, rng: () => number = Math.random): number {
  if (!Number.isInteger(retry) || retry < 1 || retry > MAX_RETRIES) {
    throw new RangeError(`nextAttemptDelay: retry must be an integer from 1 to ${MAX_RETRIES}, got ${retry}`);
  }
  const base = BASE_DELAY_MS * 2 ** (retry - 1);
  const draw = rng();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1) : 0;
  // Whole milliseconds: due times are stored as integers (docs/contracts.md, "Numbers in storage").
  return base + Math.floor(unit * base * JITTER_RATIO * DRAWN_SHARE);
}

/**
 * What retry `retry` (1, 2 or 3) leaves for the trip to the receiver after its latest possible due time:
 * the second half of its window's 10 %, 50 / 100 / 200 ms. A request that leaves later than this after its
 * due time may arrive outside its window: the host used the receiver's share (see `delivery/lateness.ts`).
 *
 * @example
 * arrivalSlackMs(1); // 50
 */
export function arrivalSlackMs(retry: number): number {
  if (!Number.isInteger(retry) || retry < 1 || retry > MAX_RETRIES) {
    throw new RangeError(`arrivalSlackMs: retry must be an integer from 1 to ${MAX_RETRIES}, got ${retry}`);
  }
  return BASE_DELAY_MS * 2 ** (retry - 1) * JITTER_RATIO * (1 - DRAWN_SHARE);
}

/**
 * Classifies one attempt: 2xx succeeded; 429 and 5xx retry; 1xx, 3xx and other 4xx failed
 * (redirects are not followed); retryable network errors (timeout, refused, reset, DNS, TLS,
 * other network errors) retry; `target_blocked` and any unknown error code failed.
 *
 * @example
 * classify({ statusCode: 503 }); // 'retry'
 * classify({ error: { code: 'target_blocked' } }); // 'failed'
 */
export function classify(outcome: AttemptOutcome): Classification {
  if ('statusCode' in outcome) {
    const status = outcome.statusCode;
    if (status >= 200 && status < 300) return 'succeeded';
    if (status === 429 || (status >= 500 && status < 600)) return 'retry';
    return 'failed';
  }
  return RETRYABLE_ERROR_CODES.has(outcome.error.code) ? 'retry' : 'failed';
}

/**
 * What to do after attempt number `attemptNumber` (1-based) of a series was classified:
 * stop with a final state, or retry after a delay. A retryable failure of attempt 4 (the 3rd
 * retry) ends as `exhausted`.
 *
 * @example
 * decide(1, 'retry'); // { retryInMs: 1000..1100 }
 * decide(4, 'retry'); // { state: 'exhausted' }
 * decide(2, 'failed'); // { state: 'failed' }
 */
export function decide(
  attemptNumber: number,
  classification: Classification,
  rng: () => number = Math.random,
): Decision {
  if (classification === 'succeeded') return { state: 'succeeded' };
  if (classification === 'failed') return { state: 'failed' };
  if (attemptNumber > MAX_RETRIES) return { state: 'exhausted' };
  return { retryInMs: nextAttemptDelay(Math.max(1, Math.floor(attemptNumber)), rng) };
}
