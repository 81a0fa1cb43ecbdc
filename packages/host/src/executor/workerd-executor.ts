import { type Deadline, raceSignal, resolveTimeout, startDeadline } from './deadline.js';
import { assertDeployment, DeploymentRegistry } from './deployment-registry.js';
import { ExecutorError, timeoutError, truncate } from './errors.js';
import { forwardableHeaders, type RawHeaders, readRequestBody, toResponse } from './http.js';
import { DEPLOYMENT_HEADER, ERROR_HEADER } from './loader-source.js';
import { SubrequestBudget } from './subrequests.js';
import type { Deployment, Executor, ExecutorLogger, InvokeOptions, InvokeResult } from './types.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, silentLogger } from './types.js';
import {
  BodyTooLargeError,
  type OutboundFetch,
  type RawAnswer,
  WorkerdInstance,
} from './workerd-instance.js';

/** Compatibility date given to integration code unless configured. */
export const DEFAULT_COMPATIBILITY_DATE = '2025-09-01';

/**
 * Options of {@link WorkerdExecutor}.
 *
 * @example
 * const options: WorkerdExecutorOptions = { outbound: (request) => policyFetch(request), logger };
 */
export interface WorkerdExecutorOptions {
  /** Gate for every outbound request of integration code. Absent: integrations have no network. */
  readonly outbound?: OutboundFetch;
  readonly logger?: ExecutorLogger;
  /** Default upper bound of one invocation (ms). Default 10 000. */
  readonly defaultTimeoutMs?: number;
  /** How long the health probe after a timeout waits before declaring workerd hung (ms). Default 1 000. */
  readonly pingTimeoutMs?: number;
  /** Compatibility date of integration code. Default `2025-09-01`. */
  readonly compatibilityDate?: string;
  /** Compatibility flags of integration code. Default none. */
  readonly compatibilityFlags?: readonly string[];
  /** Default most bytes of a response body (`InvokeOptions.maxResponseBytes`). Default 10 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Most outbound requests one invocation may make (its `fetch` throws past it). Default: no limit.
   * Calls of one deployment in flight at once share `max x calls` between them.
   */
  readonly maxSubrequests?: number;
}

/**
 * Runs third-party integration bundles in ONE workerd process (Miniflare). A loader worker loads
 * each deployment on demand through the Worker Loader binding, so a new version goes live without
 * restarting workerd. A timed-out call triggers a health probe; a hung workerd (busy loop) is
 * replaced, failing the calls in flight with `restarted`.
 *
 * @example
 * const executor = new WorkerdExecutor({ outbound: policyFetch, logger });
 * const { response, durationMs } = await executor.invoke(
 *   { id: 'hello@1.0.0#abc', script: bundleSource },
 *   new Request('http://integration/v1', { method: 'POST', headers, body: envelope }),
 * );
 * await executor.close();
 */
export class WorkerdExecutor implements Executor {
  readonly #logger: ExecutorLogger;
  readonly #defaultTimeoutMs: number;
  readonly #pingTimeoutMs: number;
  readonly #registry = new DeploymentRegistry();
  readonly #subrequests: SubrequestBudget | undefined;
  readonly #background = new Set<Promise<void>>();
  #checking = false;
  #current: Promise<WorkerdInstance> | undefined;
  #live: WorkerdInstance | undefined;
  #closed = false;
  #restarts = 0;
  /** The deployment whose timeout led to the last restart. */
  #lastSuspect: string | undefined;
  /** Which workerd process a failed call used (to tell bystanders of a restart). */
  readonly #failedOn = new WeakMap<ExecutorError, WorkerdInstance | undefined>();

  constructor(private readonly options: WorkerdExecutorOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#defaultTimeoutMs = resolveTimeout(options.defaultTimeoutMs, DEFAULT_TIMEOUT_MS);
    this.#pingTimeoutMs = resolveTimeout(options.pingTimeoutMs, 1_000);
    this.#subrequests =
      options.maxSubrequests === undefined ? undefined : new SubrequestBudget(options.maxSubrequests);
    const date = options.compatibilityDate ?? DEFAULT_COMPATIBILITY_DATE;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < '2024-04-03') {
      throw new RangeError(
        `compatibilityDate must be a YYYY-MM-DD date on or after 2024-04-03 (RPC entrypoints), got ${date}`,
      );
    }
  }

  /** Starts workerd now instead of at the first call. */
  async ready(): Promise<void> {
    await this.#instance();
  }

  /** How many times workerd was restarted because it hung. */
  get restartCount(): number {
    return this.#restarts;
  }

  async invoke(deployment: Deployment, request: Request, options: InvokeOptions = {}): Promise<InvokeResult> {
    assertDeployment(deployment);
    const timeoutMs = resolveTimeout(options.timeoutMs, this.#defaultTimeoutMs);
    const started = performance.now();
    const key = this.#registry.acquire(deployment);
    const maxBytes = options.maxResponseBytes ?? this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#subrequests?.begin(key, deployment.id);
    try {
      const body = await readRequestBody(request);
      const attempt = () =>
        this.#attempt(deployment, key, request, body, timeoutMs, options.signal, started, maxBytes);
      try {
        return await attempt();
      } catch (error) {
        // A call that failed only because ANOTHER integration hung workerd (it timed out queued
        // behind a busy loop, or was in flight during the restart) gets one fresh try on the new
        // process: the hang's cost falls on the suspect, not on bystanders.
        if (!(await this.#wasBystander(error, deployment.id))) throw error;
        this.#logger.info(
          { source: 'workerd-executor', deploymentId: deployment.id },
          'retrying a call cut short by another integration hanging workerd',
        );
        return await attempt();
      }
    } finally {
      this.#subrequests?.end(key);
      this.#registry.release(key);
    }
  }

  /** One try of a call, bounded by its own deadline. */
  async #attempt(
    deployment: Deployment,
    key: string,
    request: Request,
    body: Uint8Array | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    started: number,
    maxBodyBytes: number,
  ): Promise<InvokeResult> {
    const deadline = startDeadline(timeoutMs, signal);
    let instance: WorkerdInstance | undefined;
    try {
      instance = await raceSignal(this.#instance(), deadline.signal);
      const url = new URL(request.url);
      const answer = await instance.send({
        key,
        method: request.method,
        path: url.pathname + url.search,
        headers: forwardableHeaders(request.headers, [DEPLOYMENT_HEADER]),
        body,
        signal: deadline.signal,
        maxBodyBytes,
      });
      const failure = loaderFailure(answer, deployment.id);
      if (failure !== undefined) throw failure;
      return {
        response: toResponse(answer.status, answer.headers, answer.body),
        durationMs: performance.now() - started,
      };
    } catch (error) {
      const translated = this.#translate(error, deployment.id, deadline, instance);
      if (translated instanceof ExecutorError) this.#failedOn.set(translated, instance);
      throw translated;
    } finally {
      deadline.dispose();
    }
  }

  /**
   * True when `error` (a timeout or restart) came from workerd being hung by another deployment:
   * waits for the health verdict, then checks that the process the call used was replaced and that
   * this deployment is not the one suspected of hanging it.
   */
  async #wasBystander(error: unknown, deploymentId: string): Promise<boolean> {
    if (!(error instanceof ExecutorError) || (error.code !== 'timeout' && error.code !== 'restarted'))
      return false;
    const used = this.#failedOn.get(error);
    if (used === undefined || this.#closed) return false;
    await this.#current?.catch(() => undefined);
    return (
      used.retired === 'restarted' && this.#lastSuspect !== undefined && this.#lastSuspect !== deploymentId
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#background]);
    const instance = await this.#current?.catch(() => undefined);
    this.#current = undefined;
    await Promise.allSettled([instance?.retire('closed'), this.#live?.retire('closed')]);
  }

  #instance(): Promise<WorkerdInstance> {
    if (this.#closed) {
      return Promise.reject(new ExecutorError('unreachable', 'the workerd executor is closed'));
    }
    if (this.#current === undefined) this.#setCurrent(this.#start());
    return this.#current as Promise<WorkerdInstance>;
  }

  /** Makes `next` what new calls wait for; a failed start is forgotten so the next call retries. */
  #setCurrent(next: Promise<WorkerdInstance>): void {
    this.#current = next;
    next.catch(() => {
      if (this.#current === next) this.#current = undefined;
    });
  }

  async #start(): Promise<WorkerdInstance> {
    const instance = await WorkerdInstance.start({
      compatibilityDate: this.options.compatibilityDate ?? DEFAULT_COMPATIBILITY_DATE,
      compatibilityFlags: this.options.compatibilityFlags ?? [],
      logger: this.#logger,
      source: (key) => this.#registry.get(key),
      outbound: this.#outbound(),
      ...(this.#subrequests ? { subrequest: this.#subrequests.take } : {}),
    });
    this.#live = instance;
    return instance;
  }

  /** The options' gate, told the id of the deployment each request comes from. */
  #outbound(): OutboundFetch | undefined {
    const outbound = this.options.outbound;
    if (outbound === undefined) return undefined;
    return (request, caller) => {
      const deploymentId = caller === undefined ? undefined : this.#registry.idOf(caller.deploymentKey);
      return outbound(request, caller && (deploymentId === undefined ? caller : { ...caller, deploymentId }));
    };
  }

  #translate(
    error: unknown,
    deploymentId: string,
    deadline: Deadline,
    instance: WorkerdInstance | undefined,
  ): unknown {
    if (error instanceof ExecutorError) return error;
    if (error instanceof BodyTooLargeError) {
      return new ExecutorError(
        'response_too_large',
        `integration ${deploymentId} answered with a body over the limit of ${error.limit} bytes (PLATFORM_INVOCATION_MAX_RESPONSE_BYTES)`,
        deploymentId,
      );
    }
    if (instance?.retired === 'restarted') {
      return new ExecutorError(
        'restarted',
        `workerd was restarted while integration ${deploymentId} was running; retry the call`,
        deploymentId,
      );
    }
    if (instance?.retired === 'closed' || this.#closed) {
      return new ExecutorError('unreachable', 'the workerd executor is closed', deploymentId);
    }
    const cause = deadline.cause();
    if (cause === 'aborted') return deadline.signal.reason;
    if (instance !== undefined) this.#checkHealth(instance, deploymentId);
    if (cause === 'timeout') return timeoutError(deploymentId, deadline.timeoutMs);
    const detail = error instanceof Error ? error.message : String(error);
    return new ExecutorError(
      'unreachable',
      `the workerd runtime could not be reached for integration ${deploymentId}`,
      deploymentId,
      detail,
    );
  }

  /**
   * Probes workerd after a failed call and replaces it when it does not answer. While the probe
   * runs, new calls wait for its verdict instead of queueing on a possibly hung process. At most
   * one probe (hence one restart) at a time.
   */
  #checkHealth(instance: WorkerdInstance, suspectId: string): void {
    if (this.#checking || instance !== this.#live || instance.retired !== undefined) return;
    this.#checking = true;
    const verdict = (async () => {
      if (await instance.ping(this.#pingTimeoutMs)) return instance;
      if (this.#closed) return instance;
      return this.#restart(instance, suspectId);
    })();
    this.#setCurrent(verdict);
    const task = verdict
      .then(
        () => {},
        (error: unknown) => {
          this.#logger.error(
            { source: 'workerd-executor', reason: error instanceof Error ? error.message : String(error) },
            'restarting workerd failed; the next call will try to start it again',
          );
        },
      )
      .finally(() => {
        this.#checking = false;
        this.#background.delete(task);
      });
    this.#background.add(task);
  }

  async #restart(instance: WorkerdInstance, suspectId: string): Promise<WorkerdInstance> {
    this.#restarts += 1;
    this.#lastSuspect = suspectId;
    this.#logger.warn(
      { source: 'workerd-executor', suspectDeploymentId: suspectId },
      'workerd did not answer its health probe after a timeout (busy loop?); restarting it',
    );
    const started = performance.now();
    await instance.retire('restarted'); // free the hung process's CPU before starting another
    const next = await this.#start();
    this.#logger.info(
      { source: 'workerd-executor', restartMs: Math.round(performance.now() - started) },
      'workerd restarted',
    );
    return next;
  }
}

/** Maps a loader-produced failure response to an ExecutorError (undefined for a normal answer). */
function loaderFailure(answer: RawAnswer, deploymentId: string): ExecutorError | undefined {
  const code = header(answer.headers, ERROR_HEADER);
  if (code === undefined) return undefined;
  const detail = messageOf(answer.body);
  if (code === 'load_failed') {
    return new ExecutorError(
      'load_failed',
      `integration ${deploymentId} failed to load: ${truncate(detail, 500)}`,
      deploymentId,
      detail,
    );
  }
  if (code === 'crashed') {
    return new ExecutorError(
      'crashed',
      `integration ${deploymentId} threw an uncaught exception`,
      deploymentId,
      detail,
    );
  }
  return new ExecutorError(
    'unreachable',
    `the workerd loader refused the call (${code})`,
    deploymentId,
    detail,
  );
}

function header(headers: RawHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(body: Uint8Array): string {
  const text = new TextDecoder().decode(body);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      return String(parsed.message);
    }
  } catch {
    // not JSON: use the text
  }
  return text;
}
