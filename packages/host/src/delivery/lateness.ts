/**
 * Why a retry left late: the host's own view of the time between a retry falling due and its request
 * leaving (docs/operations.md, "Retry punctuality"). Pure: the worker and the engine measure, this names.
 */

/**
 * A retry that leaves more than this many ms after it fell due is reported (metric and log line) unless
 * the caller gives its own bound: the delivery engine gives each retry the share of its window the policy
 * left for the trip to the receiver (`arrivalSlackMs`: 50 / 100 / 200 ms), so a retry that may arrive
 * outside its window because of the host is always reported.
 */
export const LATE_RETRY_MS = 100;

/** Where the time between a retry's due time and its request went. */
export type LateCause =
  /** It fell due before this host's delivery engine started: the host was down (stopped, crashed, restarting). */
  | 'host_not_running'
  /** The wake-up timer fired late: the thread's event loop was busy (CPU, GC, a long task). */
  | 'event_loop_delay'
  /** No claim ran when it fell due: no free slot, or the worker was not woken for it. */
  | 'waiting_for_slot'
  /** The claim itself took the time: the database was slow or locked. */
  | 'claim'
  /** Between the claim and the request: reading the target's URL and secrets, or the thread was busy. */
  | 'preparing';

/** The instants the worker and the engine saw, in ms on one clock. */
export interface RetryTimeline {
  /** When the retry fell due (its `runAt`). */
  dueAt: number;
  /** How late the worker's timer fired for the cycle that claimed it (0 when no timer woke it). */
  timerLateMs: number;
  /** When the claim that took it began, and when it returned. */
  claimStartedAt: number;
  claimedAt: number;
  /** When its request was about to be sent. */
  sendingAt: number;
  /** When the delivery engine that sends it started (a retry due before then waited for a host). */
  engineStartedAt?: number;
}

/** A late retry: how late, why, and each part. */
export interface LateRetry {
  lateMs: number;
  cause: LateCause;
  parts: Record<LateCause, number>;
}

/**
 * Names why a retry left late, or null when it left within `lateAfterMs` (default {@link LATE_RETRY_MS}) of
 * its due time. The cause is the largest part of the delay.
 *
 * @example
 * diagnoseRetry({ dueAt: 1000, timerLateMs: 0, claimStartedAt: 1000, claimedAt: 1400, sendingAt: 1405 });
 * // { lateMs: 405, cause: 'claim', parts: { claim: 400, preparing: 5, host_not_running: 0, event_loop_delay: 0, waiting_for_slot: 0 } }
 */
export function diagnoseRetry(timeline: RetryTimeline, lateAfterMs = LATE_RETRY_MS): LateRetry | null {
  const lateMs = timeline.sendingAt - timeline.dueAt;
  if (!(lateMs > lateAfterMs)) return null;
  // the time before this engine existed is the host's absence, not a slot's or the event loop's
  const down = Math.max(0, (timeline.engineStartedAt ?? timeline.dueAt) - timeline.dueAt);
  const dueAt = timeline.dueAt + down;
  const beforeClaim = Math.max(0, timeline.claimStartedAt - dueAt);
  const eventLoop = Math.min(beforeClaim, Math.max(0, timeline.timerLateMs));
  const parts: Record<LateCause, number> = {
    host_not_running: down,
    event_loop_delay: eventLoop,
    waiting_for_slot: beforeClaim - eventLoop,
    claim: Math.max(0, timeline.claimedAt - Math.max(timeline.claimStartedAt, dueAt)),
    preparing: Math.max(0, timeline.sendingAt - Math.max(timeline.claimedAt, dueAt)),
  };
  let cause: LateCause = 'waiting_for_slot';
  for (const key of Object.keys(parts) as LateCause[]) if (parts[key] > parts[cause]) cause = key;
  return { lateMs, cause, parts };
}
