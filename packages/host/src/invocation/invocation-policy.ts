import type { ExecutorErrorCode } from '../executor/index.js';
import type { Classification } from '../jobs/policy.js';

/**
 * Retry classification of invocations (queued events posted to integrations): the retry schedule is the
 * deliveries' one (jobs/policy.ts `decide`, docs/contracts.md "Retry policy"), but what is worth a
 * retry is the invocation's own. Pure.
 */

/**
 * What each executor error means for an invocation: a bundle that cannot load fails for good (retrying
 * cannot fix it); every other failure (deadline, restarted or unreachable runtime, a crash, an oversized
 * answer) may pass on another attempt.
 */
export const EXECUTOR_ERROR_CLASSIFICATION: Readonly<Record<ExecutorErrorCode, Classification>> = {
  timeout: 'retry',
  restarted: 'retry',
  unreachable: 'retry',
  crashed: 'retry',
  response_too_large: 'retry',
  load_failed: 'failed',
};

/** What the classification reads of an invocation's outcome. */
export type InvocationResult =
  | { ok: true; response: { status: number } }
  | { ok: false; error: { code: ExecutorErrorCode } };

/**
 * Classifies one invocation attempt: the integration answered 2xx (succeeded), 429 or 5xx (retry), any
 * other status (failed: the integration refused the event); or the executor failed, classified by its
 * error code ({@link EXECUTOR_ERROR_CLASSIFICATION}).
 *
 * @example
 * classifyInvocation({ ok: true, response: { status: 503 } }); // 'retry'
 * classifyInvocation({ ok: false, error: { code: 'load_failed' } }); // 'failed'
 */
export function classifyInvocation(result: InvocationResult): Classification {
  if (!result.ok) return EXECUTOR_ERROR_CLASSIFICATION[result.error.code];
  const status = result.response.status;
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 429 || (status >= 500 && status < 600)) return 'retry';
  return 'failed';
}
