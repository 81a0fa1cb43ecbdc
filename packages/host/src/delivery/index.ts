/**
 * Webhook delivery, storage-agnostic core: how an attempt is classified, the signed sender, retry schedules and
 * the engine that runs them on a durable queue (on the shared job loop of `../jobs/`). The host's adapter (durable queue, delivery thread) is `host/`. See README.md.
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
export type { DeliverJobPayload } from './payload.js';
export { type AttemptOutcome, classify, RETRYABLE_ERROR_CODES } from './policy.js';
export {
  type AttemptResult,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  type SendWebhookInput,
  sendWebhook,
} from './sender.js';
export { type DeliverySigning, type SignInput, signatureHeaders } from './signing.js';
