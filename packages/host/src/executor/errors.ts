/**
 * Why an invocation failed.
 * - `timeout`: the host-side deadline passed.
 * - `restarted`: the runtime was restarted (another integration hung it) while the call was in flight.
 * - `load_failed`: the bundle could not be loaded (syntax error, no default export with `fetch`, ...).
 * - `unreachable`: the runtime or remote endpoint could not be reached (or the executor is closed).
 * - `crashed`: the integration code threw instead of returning a response.
 * - `response_too_large`: the integration's response body went over the response size limit.
 */
export type ExecutorErrorCode =
  | 'timeout'
  | 'restarted'
  | 'load_failed'
  | 'unreachable'
  | 'crashed'
  | 'response_too_large';

const STATUS: Record<ExecutorErrorCode, number> = {
  timeout: 504,
  restarted: 503,
  load_failed: 502,
  unreachable: 502,
  crashed: 502,
  response_too_large: 502,
};

/** Longest `detail` kept (characters). */
const MAX_DETAIL = 2_000;

/**
 * A failed invocation. `message` never contains integration source, env values or secrets.
 * `detail` carries the runtime's own text (a load error such as `SyntaxError: ... at main.js:1:27`,
 * or the message of an uncaught exception): meant for the integration's author (invocation logs),
 * not for anonymous callers of a public endpoint.
 *
 * @example
 * try { await executor.invoke(deployment, request); }
 * catch (e) { if (e instanceof ExecutorError && e.code === 'timeout') reply(e.status, e.message); }
 */
export class ExecutorError extends Error {
  override readonly name = 'ExecutorError';
  /** HTTP status a host would answer with when it forwards this failure. */
  readonly status: number;
  readonly detail: string | undefined;

  constructor(
    readonly code: ExecutorErrorCode,
    message: string,
    readonly deploymentId?: string,
    detail?: string,
  ) {
    super(message);
    this.status = STATUS[code];
    this.detail = detail === undefined ? undefined : truncate(detail, MAX_DETAIL);
  }
}

/**
 * Shortens `text` to at most `max` characters, marking the cut.
 *
 * @example
 * truncate('abcdef', 4); // 'abc…'
 */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Builds the error for an exceeded deadline.
 *
 * @example
 * throw timeoutError('hello@1.0.0#abc', 10_000);
 */
export function timeoutError(deploymentId: string, timeoutMs: number): ExecutorError {
  return new ExecutorError(
    'timeout',
    `integration ${deploymentId} did not answer within ${timeoutMs} ms`,
    deploymentId,
  );
}
