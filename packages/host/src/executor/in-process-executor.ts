import { raceSignal, resolveTimeout, startDeadline } from './deadline.js';
import { ExecutorError, timeoutError } from './errors.js';
import { toResponse } from './http.js';
import type { Deployment, Executor, ExecutorLogger, InvokeOptions, InvokeResult } from './types.js';
import { DEFAULT_TIMEOUT_MS, silentLogger } from './types.js';

/**
 * The `ctx` handed to an in-process module, as workerd would.
 *
 * @example
 * ctx.waitUntil(sendAnalytics());
 */
export interface InProcessContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}

/**
 * A first-party integration module: the default export of its bundle.
 *
 * @example
 * const module: FetchModule = { fetch: async (request, env, ctx) => new Response('ok') };
 */
export interface FetchModule {
  fetch(
    request: Request,
    env: Readonly<Record<string, string>>,
    ctx: InProcessContext,
  ): Response | Promise<Response>;
}

/** A module, or a function that loads it (called once per deployment id, result cached). */
export type ModuleSource = FetchModule | (() => FetchModule | Promise<FetchModule>);

/**
 * Options of {@link InProcessExecutor}.
 *
 * @example
 * new InProcessExecutor({ modules: { 'webhook@1.0.0': webhookModule }, logger });
 */
export interface InProcessExecutorOptions {
  /** Deployment id -> module (or loader). `Deployment.script` is ignored. */
  readonly modules: Readonly<Record<string, ModuleSource>> | ReadonlyMap<string, ModuleSource>;
  readonly logger?: ExecutorLogger;
  readonly defaultTimeoutMs?: number;
}

/**
 * Runs trusted first-party modules directly in the host process. Same timeout semantics as the
 * other executors (the handler cannot be stopped, but its request's `signal` aborts and the call
 * fails with `timeout`); `ctx.waitUntil` promises are tracked and awaited on `close()`.
 *
 * @example
 * const executor = new InProcessExecutor({ modules: { 'webhook@1.0.0': { fetch: handle } } });
 * const { response } = await executor.invoke({ id: 'webhook@1.0.0', script: '' }, request);
 * await executor.close(); // waits for pending waitUntil work
 */
export class InProcessExecutor implements Executor {
  readonly #logger: ExecutorLogger;
  readonly #defaultTimeoutMs: number;
  readonly #modules: ReadonlyMap<string, ModuleSource>;
  readonly #loaded = new Map<string, Promise<FetchModule>>();
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: InProcessExecutorOptions) {
    this.#logger = options.logger ?? silentLogger;
    this.#defaultTimeoutMs = resolveTimeout(options.defaultTimeoutMs, DEFAULT_TIMEOUT_MS);
    this.#modules =
      options.modules instanceof Map ? options.modules : new Map(Object.entries(options.modules));
  }

  /** Number of `waitUntil` promises not yet settled. */
  get pendingWaitUntil(): number {
    return this.#pending.size;
  }

  async invoke(deployment: Deployment, request: Request, options: InvokeOptions = {}): Promise<InvokeResult> {
    if (this.#closed) {
      throw new ExecutorError('unreachable', 'the in-process executor is closed', deployment.id);
    }
    const deadline = startDeadline(resolveTimeout(options.timeoutMs, this.#defaultTimeoutMs), options.signal);
    try {
      const module = await raceSignal(this.#load(deployment.id), deadline.signal);
      const ctx: InProcessContext = {
        waitUntil: (promise) => this.#track(deployment.id, promise),
        passThroughOnException: () => {},
      };
      const run = (async () => {
        const response = await module.fetch(
          new Request(request, { signal: deadline.signal }),
          { ...deployment.env },
          ctx,
        );
        // Structural, not `instanceof`: a module may hold another realm's (or a polyfill's) Response.
        if (!isResponseLike(response)) throw new TypeError('fetch() did not return a Response');
        // Buffer inside the deadline, like the other executors.
        const body = new Uint8Array(await response.arrayBuffer());
        return toResponse(response.status, response.headers, body);
      })();
      const response = await raceSignal(
        run.catch((error: unknown) => {
          throw new ExecutorError(
            'crashed',
            `integration ${deployment.id} threw an uncaught exception`,
            deployment.id,
            error instanceof Error ? `${error.name}: ${error.message}` : 'non-Error value thrown',
          );
        }),
        deadline.signal,
      );
      return { response, durationMs: deadline.elapsedMs() };
    } catch (error) {
      if (error instanceof ExecutorError) throw error;
      if (deadline.cause() === 'timeout') throw timeoutError(deployment.id, deadline.timeoutMs);
      throw error; // the caller's abort reason
    } finally {
      deadline.dispose();
    }
  }

  /** Stops accepting calls and waits for every pending `waitUntil` promise. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  #load(id: string): Promise<FetchModule> {
    const cached = this.#loaded.get(id);
    if (cached !== undefined) return cached;
    const source = this.#modules.get(id);
    const loading = (async () => {
      if (source === undefined) {
        throw new ExecutorError(
          'load_failed',
          `no in-process module is registered for deployment ${id}; add it to the executor's modules`,
          id,
        );
      }
      let module: unknown;
      try {
        module = typeof source === 'function' ? await source() : source;
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new ExecutorError('load_failed', `integration ${id} failed to load`, id, detail);
      }
      if (!isFetchModule(module)) {
        throw new ExecutorError(
          'load_failed',
          `integration ${id} failed to load: the module has no fetch(request, env, ctx) function`,
          id,
        );
      }
      return module;
    })();
    this.#loaded.set(id, loading);
    loading.catch(() => this.#loaded.delete(id)); // a later call may retry a failed loader
    return loading;
  }

  #track(deploymentId: string, promise: Promise<unknown>): void {
    const tracked = Promise.resolve(promise)
      .catch((error: unknown) => {
        this.#logger.error(
          {
            source: 'in-process-executor',
            deploymentId,
            reason: error instanceof Error ? error.message : String(error),
          },
          'a waitUntil promise rejected',
        );
      })
      .finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }
}

function isFetchModule(value: unknown): value is FetchModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    'fetch' in value &&
    typeof (value as { fetch: unknown }).fetch === 'function'
  );
}

/** True for anything shaped like a fetch `Response` (status, headers, arrayBuffer). */
function isResponseLike(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Response>;
  return (
    typeof candidate.status === 'number' &&
    typeof candidate.arrayBuffer === 'function' &&
    typeof candidate.headers === 'object' &&
    candidate.headers !== null
  );
}
