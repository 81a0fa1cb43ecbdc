import { DEFAULT_TIMEOUT_MS } from './types.js';

/** Why a {@link Deadline} fired: its own timer, or the caller's signal. */
export type DeadlineCause = 'timeout' | 'aborted';

/**
 * A timer merged with an optional caller signal; `signal` aborts on whichever comes first.
 *
 * @example
 * const deadline = startDeadline(5_000, callerSignal);
 * try { await fetch(url, { signal: deadline.signal }); } finally { deadline.dispose(); }
 */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** `undefined` while running; then whether the timer or the caller fired first. */
  cause(): DeadlineCause | undefined;
  /** Milliseconds since the deadline started (an invocation's `durationMs`). */
  elapsedMs(): number;
  dispose(): void;
}

/**
 * Validates a timeout: a positive finite number of milliseconds (default {@link DEFAULT_TIMEOUT_MS}).
 *
 * @example
 * resolveTimeout(undefined, 10_000); // 10000
 * resolveTimeout(-1, 10_000); // throws RangeError
 */
export function resolveTimeout(timeoutMs: number | undefined, fallback = DEFAULT_TIMEOUT_MS): number {
  const value = timeoutMs ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `timeoutMs must be a positive number of milliseconds, got ${String(value)}; pass e.g. { timeoutMs: 10000 }`,
    );
  }
  return value;
}

/**
 * Starts a deadline of `timeoutMs` that also follows `callerSignal`.
 *
 * @example
 * const deadline = startDeadline(100);
 * deadline.signal.addEventListener('abort', () => console.log(deadline.cause())); // 'timeout'
 */
export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const started = performance.now();
  const controller = new AbortController();
  let cause: DeadlineCause | undefined;
  const fire = (why: DeadlineCause, reason: unknown) => {
    if (cause !== undefined) return;
    cause = why;
    controller.abort(reason);
  };
  const onCallerAbort = () => fire('aborted', callerSignal?.reason);
  const timer = setTimeout(
    () => fire('timeout', new DOMException('invocation timed out', 'TimeoutError')),
    timeoutMs,
  );
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timeoutMs,
    cause: () => cause,
    elapsedMs: () => performance.now() - started,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * Resolves with `promise`, or rejects with `signal.reason` as soon as `signal` aborts.
 * (The promise keeps running; use it for work that cannot be cancelled.)
 *
 * @example
 * const value = await raceSignal(slowWork(), deadline.signal);
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
