/**
 * The durable queue's workers share this room: the job loop (claim into free slots, one timer for the next
 * due time), the fair share between installations, group commit of writes, the retry decisions and the
 * lease times. It imports storage types only; webhook delivery (`../delivery/`) and the invocation of
 * integration code (`../invocation/`) run on it.
 *
 * @example
 * import { createJobLoop, decide, leaseMs } from './jobs/index.js';
 * const loop = createJobLoop(options); // JobLoopOptions: claim, handle, slots, ...
 * const decision = decide(1, 'retry'); // { retryInMs: 1000..1050 }
 */
export { FairShare, type FairShareOptions, SLOW_ATTEMPT_MS } from './fair-share.js';
export { GroupCommit } from './group-commit.js';
export {
  type ClaimAnswer,
  createJobLoop,
  type JobLoop,
  type JobLoopClock,
  type JobLoopErrorPhase,
  type JobLoopOptions,
  systemClock,
} from './job-loop.js';
export { leaseMs } from './lease.js';
export {
  arrivalSlackMs,
  BASE_DELAY_MS,
  type Classification,
  type Decision,
  DRAWN_SHARE,
  decide,
  type FinalState,
  JITTER_RATIO,
  MAX_RETRIES,
  nextAttemptDelay,
} from './policy.js';
