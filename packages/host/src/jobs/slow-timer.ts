import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import type { BusyMeter, JobLoopClock } from './job-loop-types.js';

/**
 * How late (ms) the timer of an attempt's `slowMs` may fire before it is taken for a stall of its own
 * thread rather than of the endpoint, and the attempt is given the time lost (docs/architecture.md, the
 * delivery thread's fair share).
 */
export const STALL_MS = 25;

/**
 * The share of an attempt's `slowMs` above which its thread's event loop counts as too busy to have read
 * the answer in time (see {@link STALL_MS}).
 */
export const BUSY_SHARE = 0.9;

/**
 * The most time (in `slowMs`) an attempt is given for its thread's stalls: the time lost is measured (a
 * process over its CPU quota can be paused for a second and more), and a dead endpoint is still found
 * once a verdict falls due on time, or after this. A busy thread's time is a guess: at most one `slowMs`.
 */
export const STALL_ALLOWANCE = 4;

/** The calling thread's event loop: `perf_hooks`' `eventLoopUtilization`. */
export const threadBusyMeter: BusyMeter = {
  mark: () => performance.eventLoopUtilization(),
  busySince: (mark) => performance.eventLoopUtilization(mark as EventLoopUtilization).utilization,
};

/** Options of {@link SlowTimer}. */
export interface SlowTimerOptions {
  clock: JobLoopClock;
  busyMeter: BusyMeter;
  /** The attempt's time before it counts as lingering (the fair share's `slowMs`). */
  slowMs: number;
  /** The verdict: the attempt ran `slowMs` of the endpoint's time (at most once per `start`). */
  onSlow(): void;
}

/**
 * The timer of one attempt's verdict: `slowMs` after `start()`, unless `stop()` comes first. The host's own
 * delays are not the endpoint's: a timer that fires more than {@link STALL_MS} late tells of a thread that
 * was stalled (paused, starved of CPU by its quota, collecting garbage), with the answer maybe waiting
 * unread (timers run before the I/O of their turn), and a thread whose event loop was busy more than
 * {@link BUSY_SHARE} of the time may not have read it yet. Such an attempt gets the time lost, up to
 * {@link STALL_ALLOWANCE} × `slowMs` more in all (a busy thread: half of `slowMs` at a time, while less
 * than `slowMs` was given), before the verdict.
 *
 * @example
 * const timer = new SlowTimer({ clock: systemClock, busyMeter: threadBusyMeter, slowMs: 500, onSlow: () => lingered() });
 * timer.start(); // the request is sent
 * timer.stop(); // its answer was read
 */
export class SlowTimer {
  #handle: unknown;

  constructor(private readonly options: SlowTimerOptions) {}

  /** Arms the verdict `slowMs` from now (again, if it was armed). */
  start(): void {
    this.stop();
    this.#arm(this.options.slowMs, 0);
  }

  /** No verdict: the attempt's measured part ended. */
  stop(): void {
    if (this.#handle !== undefined) this.options.clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }

  #arm(ms: number, extended: number): void {
    const { clock, busyMeter, slowMs } = this.options;
    const due = clock.now() + ms;
    const mark = busyMeter.mark();
    this.#handle = clock.setTimeout(() => {
      this.#handle = undefined;
      const late = clock.now() - due;
      const stalled = late > STALL_MS && extended < STALL_ALLOWANCE * slowMs;
      const busy = !stalled && extended < slowMs && busyMeter.busySince(mark) > BUSY_SHARE;
      if (stalled || busy) {
        const more = stalled
          ? Math.min(late, STALL_ALLOWANCE * slowMs - extended)
          : Math.min(Math.ceil(slowMs / 2), slowMs - extended);
        this.#arm(more, extended + more);
        return;
      }
      this.options.onSlow();
    }, ms);
  }
}
