import { systemTimerClock, type TimerClock } from './timer-clock.js';
import type { JobKind, QueueSignal } from './types.js';

/**
 * Sender-side coalescing of queue signals (docs/operations.md, "Several hosts"). Every host hears every
 * signal of a kind, so under load a signal per transaction (hundreds a second per host) costs each
 * listening host a wake-up and a claim for each, most of them finding the work already taken. A signal
 * only has to tell the other hosts that work of a kind is due, once: after one goes out, the next ones of
 * that kind within {@link SIGNAL_WINDOW_MS} are held and merged into one, sent at the end of the window
 * with the earliest due time among them, and only once every transaction that held one has ended (so the
 * work it announces is committed when the others look). Under a steady stream that is one signal per
 * window and kind; a lone signal goes out at once.
 */

/** The window of a kind's signals, in ms: at most one signal of a kind per window (plus the first). */
export const SIGNAL_WINDOW_MS = 5;

/** The clock the coalescer reads and the timer it arms (injected in tests). */
export type CoalescerClock = TimerClock;

/** What {@link SignalCoalescer.admit} decides: send it now, or it is held until `done()` is called. */
export type Admission = { send: true } | { send: false; done(): void };

interface KindState {
  lastSentAt: number;
  /** The earliest due time among the held signals, or null. */
  pending: number | null;
  /** Held signals whose transaction has not ended yet. */
  holders: number;
  timer: unknown;
}

/**
 * Decides, for each signal, whether it goes out now (with its transaction) or is merged into the trailing
 * signal of its window, which `sendLate` sends on its own once due.
 *
 * @example
 * const coalescer = new SignalCoalescer((signal) => notifyOutsideAnyTransaction(signal));
 * const admission = coalescer.admit({ kind: 'deliver', dueAt: Date.now() });
 * if (admission.send) await notifyInThisTransaction();
 * else afterCommitOrRollback(() => admission.done());
 */
export class SignalCoalescer {
  readonly #kinds = new Map<JobKind, KindState>();
  #closed = false;

  constructor(
    private readonly sendLate: (signal: QueueSignal) => Promise<void>,
    private readonly windowMs = SIGNAL_WINDOW_MS,
    private readonly clock: CoalescerClock = systemTimerClock,
  ) {}

  /** A signal about to be sent: whether it goes out now, or is held (call `done()` when its transaction ends). */
  admit(signal: QueueSignal): Admission {
    const state = this.#state(signal.kind);
    const now = this.clock.now();
    if (now - state.lastSentAt >= this.windowMs) {
      state.lastSentAt = now;
      return { send: true };
    }
    state.pending = state.pending === null ? signal.dueAt : Math.min(state.pending, signal.dueAt);
    state.holders += 1;
    let ended = false;
    return {
      send: false,
      done: () => {
        if (ended) return;
        ended = true;
        state.holders -= 1;
        this.#flush(signal.kind, state);
      },
    };
  }

  /** Stops the timers; held signals are dropped (the host is closing). */
  close(): void {
    this.#closed = true;
    for (const state of this.#kinds.values()) {
      if (state.timer !== undefined) this.clock.clearTimeout(state.timer);
      state.timer = undefined;
    }
  }

  #state(kind: JobKind): KindState {
    let state = this.#kinds.get(kind);
    if (!state) {
      state = { lastSentAt: Number.NEGATIVE_INFINITY, pending: null, holders: 0, timer: undefined };
      this.#kinds.set(kind, state);
    }
    return state;
  }

  /** Sends the held signal once no transaction holds it and its window has passed. */
  #flush(kind: JobKind, state: KindState): void {
    if (this.#closed || state.pending === null || state.holders > 0 || state.timer !== undefined) return;
    const wait = state.lastSentAt + this.windowMs - this.clock.now();
    if (wait > 0) {
      state.timer = this.clock.setTimeout(() => {
        state.timer = undefined;
        this.#flush(kind, state);
      }, wait);
      return;
    }
    const dueAt = state.pending;
    state.pending = null;
    state.lastSentAt = this.clock.now();
    // A signal that cannot be sent (database away) loses nothing: the work is in the queue, where the
    // host that queued it claims it, and the others find it at their next look (idle check, resync).
    this.sendLate({ kind, dueAt }).catch(() => undefined);
  }
}
