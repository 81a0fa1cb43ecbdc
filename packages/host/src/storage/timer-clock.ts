/**
 * The clock a timing piece reads and the timer it arms, injected in tests (a fake that advances by hand).
 * The signal coalescer of the storage and the signal back-off of the delivery engine take one.
 */
export interface TimerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/**
 * The real clock: `Date.now()`, and timers that do not keep the process alive.
 *
 * @example
 * const timer = systemTimerClock.setTimeout(() => wake(), 5); // unref'd
 */
export const systemTimerClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};
