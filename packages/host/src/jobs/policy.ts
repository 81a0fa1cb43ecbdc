/**
 * Retry policy of the durable queue's jobs (docs/contracts.md "Retry policy"): how many attempts, the
 * delays between them, and what to do after a classified attempt. Pure functions; shared by webhook
 * delivery (`delivery/policy.ts` classifies an attempt) and invocation (`invocation/invocation-policy.ts`).
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

/** The next step after an attempt: a final state, or another attempt after `retryInMs`. */
export type Decision = { state: FinalState } | { retryInMs: number };

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
