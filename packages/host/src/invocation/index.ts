/**
 * The invocation of integration code: the invoker (one envelope to an executor, its logs and metrics), the
 * worker on the durable queue's `invoke` jobs (on the shared job loop of `../jobs/`), what of an
 * invocation is worth a retry, and its spans. It reaches the host only through {@link InvocationHost}.
 *
 * @example
 * import { startInvocationWorker } from './invocation/index.js';
 * const worker = startInvocationWorker(ctx, executors);
 */
export { buildEnvelope } from './envelope.js';
export { buildEnvironment } from './environment.js';
export { classifyInvocation, EXECUTOR_ERROR_CLASSIFICATION } from './invocation-policy.js';
export { decisionLine, startInvocationWorker } from './invocation-worker.js';
export { deploymentOf, type ExecutorSelector, invoke } from './invoker.js';
export { type InvokeJobPayload, openSetupEvent } from './payload.js';
export type { InvocationHost } from './port.js';
