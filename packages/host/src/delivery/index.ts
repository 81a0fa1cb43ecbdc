/**
 * Webhook delivery, storage-agnostic core: retry policy, signed sender, job loop, fair share and the engine
 * that ties them to a durable queue. The host's adapter (durable queue, delivery thread) is `host/`. See README.md.
 *
 * @example
 * import { createDeliveryEngine } from './delivery/index.js';
 * const engine = createDeliveryEngine({ queue, resolveTarget, dispatcher, policy, userAgentVersion: '0.1.0' });
 * engine.start();
 */
export {
  type AttemptEnd,
  createDeliveryEngine,
  type DeliveryEngine,
  type DeliveryEngineOptions,
  type DeliveryJob,
  type DeliveryQueue,
  type DeliveryTarget,
  type RecordedAttempt,
} from './engine.js';
export { type AttemptError, type AttemptErrorCode, toAttemptError } from './errors.js';
export {
  createJobLoop,
  type JobLoop,
  type JobLoopClock,
  type JobLoopErrorPhase,
  type JobLoopOptions,
  systemClock,
} from './job-loop.js';
export {
  type AttemptOutcome,
  BASE_DELAY_MS,
  type Classification,
  classify,
  type Decision,
  DRAWN_SHARE,
  decide,
  type FinalState,
  JITTER_RATIO,
  MAX_RETRIES,
  nextAttemptDelay,
  RETRYABLE_ERROR_CODES,
} from './policy.js';
export {
  type AttemptResult,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  type SendWebhookInput,
  sendWebhook,
} from './sender.js';
export { type DeliverySigning, type SignInput, signatureHeaders } from './signing.js';
