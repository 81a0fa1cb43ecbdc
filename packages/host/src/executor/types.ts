/**
 * The contract between the host and whatever runs integration code.
 *
 * The host builds the signed `POST /v1` multipart envelope (docs/contracts.md) and hands it to
 * an {@link Executor}; the executor only transports it to the integration and brings the
 * response back. Where the code runs (workerd on this machine, in-process for first-party code,
 * a remote HTTP endpoint, later Workers for Platforms) is the executor's business only.
 */

/**
 * One runnable version of an integration.
 *
 * @example
 * const deployment: Deployment = {
 *   id: 'hello@1.0.0#3f2a9c',
 *   script: 'export default { fetch: () => new Response("hi") }',
 * };
 */
export interface Deployment {
  /** Stable id of this exact bundle, e.g. `"hello@1.0.0#<bundleHash>"`. */
  readonly id: string;
  /** ESM bundle source; its default export has `fetch(request, env, ctx)`. */
  readonly script: string;
  /** Plain string bindings visible as `env` to the integration's `fetch`. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Per-call options of {@link Executor.invoke}.
 *
 * @example
 * await executor.invoke(deployment, request, { timeoutMs: 2_000, signal: controller.signal });
 */
export interface InvokeOptions {
  /** Upper bound for the whole call, response body included. Default: the executor's (10 s). */
  readonly timeoutMs?: number;
  /** Aborting it rejects the call with the signal's reason (no ExecutorError). */
  readonly signal?: AbortSignal;
  /** Most bytes of the response body; more rejects with `response_too_large`. Default: the executor's. */
  readonly maxResponseBytes?: number;
}

/**
 * What an invocation returns: the integration's response, fully buffered, and how long it took.
 *
 * @example
 * const { response, durationMs } = await executor.invoke(deployment, request);
 */
export interface InvokeResult {
  readonly response: Response;
  readonly durationMs: number;
}

/**
 * Runs integration code without the caller knowing where.
 *
 * @example
 * const executor: Executor = new WorkerdExecutor({ outbound: policyFetch, logger });
 * const { response } = await executor.invoke(deployment, new Request('http://integration/v1', { method: 'POST', body }));
 * await executor.close();
 */
export interface Executor {
  /**
   * Sends `request` to `deployment` and resolves with its response.
   * Rejects with an `ExecutorError` (`timeout | restarted | load_failed | unreachable | crashed`),
   * or with `options.signal.reason` when the caller aborted.
   */
  invoke(deployment: Deployment, request: Request, options?: InvokeOptions): Promise<InvokeResult>;
  /** Stops accepting calls and releases every resource (processes, sockets, pending work). */
  close(): Promise<void>;
}

/**
 * The subset of a pino logger the executors use (a pino `Logger` fits as is).
 *
 * @example
 * const logger: ExecutorLogger = pino();
 */
export interface ExecutorLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

/**
 * A logger that drops everything (the default when none is injected).
 *
 * @example
 * new InProcessExecutor({ modules: {}, logger: silentLogger });
 */
export const silentLogger: ExecutorLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** Default upper bound of an invocation's response body, in bytes (10 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Default upper bound of one invocation, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;
