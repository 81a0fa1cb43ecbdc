import { systemTimerClock, type TimerClock } from '../../storage/index.js';

/**
 * Several hosts on one database all hear each queue signal (docs/operations.md, "Several hosts"). For work
 * due now, every host with a free slot would claim at once, and all but one of those claims come back empty:
 * a cost per delivery that grows with the number of hosts (docs/benchmarks.md, "Several hosts: costs that
 * grow with hosts"). A host whose last claim came back empty therefore waits out a short back-off before a
 * signal of due work wakes it again: 1 ms after one empty claim, doubling with each empty claim after it,
 * at most {@link SIGNAL_BACKOFF_MAX_MS}; a claim that gets jobs ends the back-off. A signal heard during a
 * back-off is never dropped: it wakes the host once the back-off has passed.
 *
 * Work due later (a retry) is not gated: its signal arms the host's timer for its due time, as before.
 */

/** The longest a due-now signal waits after empty claims, in ms. */
export const SIGNAL_BACKOFF_MAX_MS = 32;

/** The clock the back-off reads and the timer it arms (injected in tests). */
export type BackoffClock = TimerClock;

/**
 * Gates the wake-ups other hosts' signals of due work cause, by the results of this host's claims.
 *
 * @example
 * const backoff = new SignalBackoff(() => engine.notify());
 * backoff.claimed(0); // a claim came back empty: the next signal waits 1 ms
 * backoff.heard(); // a signal of due work: wakes now, or once the back-off has passed
 * backoff.close();
 */
export class SignalBackoff {
  readonly #wake: () => void;
  readonly #clock: BackoffClock;
  #backoffMs = 0;
  #lastEmptyAt = Number.NEGATIVE_INFINITY;
  #deferred: unknown;

  constructor(wake: () => void, clock: BackoffClock = systemTimerClock) {
    this.#wake = wake;
    this.#clock = clock;
  }

  /** A claim of this host got `count` jobs (0: it came back empty). */
  claimed(count: number): void {
    if (count > 0) {
      this.#backoffMs = 0;
      return;
    }
    this.#lastEmptyAt = this.#clock.now();
    this.#backoffMs = Math.min(SIGNAL_BACKOFF_MAX_MS, Math.max(1, this.#backoffMs * 2));
  }

  /** Another host signalled work that is due now: wake at once, or when the back-off has passed. */
  heard(): void {
    const wait = this.#lastEmptyAt + this.#backoffMs - this.#clock.now();
    if (this.#backoffMs === 0 || wait <= 0) {
      this.#wake();
      return;
    }
    if (this.#deferred !== undefined) return; // one wake-up at the end of the back-off serves them all
    this.#deferred = this.#clock.setTimeout(() => {
      this.#deferred = undefined;
      this.#wake();
    }, Math.ceil(wait));
  }

  /** Cancels a pending wake-up. */
  close(): void {
    if (this.#deferred !== undefined) this.#clock.clearTimeout(this.#deferred);
    this.#deferred = undefined;
  }
}
