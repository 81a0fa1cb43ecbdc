/**
 * Fair share of a worker's slots between keys (for deliveries: installations), so that one slow or dead
 * endpoint cannot hold up the others. The rules:
 *
 * - An attempt that runs longer than `slowMs` is *lingering* (the endpoint's time: the job loop does not
 *   count its own thread's stalls, see `STALL_MS` in job-loop.ts): it gives its slot back (the worker may
 *   start another job; an attempt waiting on a silent socket costs a socket, not work), up to
 *   `maxLingering` in all, and its key is *slow* while it lingers.
 * - A key stays slow for `slowForMs` once a second attempt of it lingers within `slowForMs` of the one
 *   before (a dead or slow endpoint: its attempts in flight all linger together, and every later one
 *   again), or once an attempt runs past `slowMs` while `maxLingering` others linger. One lingering
 *   attempt alone, a lost packet on a healthy endpoint, leaves no mark once it ends.
 * - A slow key may have at most `limit` jobs in flight (lingering or not); claims take at most what it has
 *   left, and none while it is at its limit.
 * - Other keys are not limited: an endpoint that answers quickly turns its slots over in milliseconds and
 *   may use every free slot.
 *
 * So a healthy subscriber waits at most `slowMs` behind an endpoint that stops answering, once; after that
 * the endpoint holds at most `limit` slots' worth of attempts. Pure bookkeeping: the worker calls it.
 */

/** The default `slowMs`: an attempt running longer makes its key slow. */
export const SLOW_ATTEMPT_MS = 500;

/** Options of {@link FairShare}. */
export interface FairShareOptions {
  /** Most jobs of a slow key in flight at once (>= 1). */
  limit: number;
  /** An attempt running longer than this lingers and makes its key slow. */
  slowMs: number;
  /**
   * How long a key stays slow after an attempt began to linger within this long of the previous one (and
   * the window in which two lingering attempts make it so).
   */
  slowForMs: number;
  /** Most lingering attempts in all (their slots are given back: this bounds the sockets held). */
  maxLingering: number;
  /** Wall-clock ms (the worker's clock). */
  now(): number;
  /** A key became slow (`true`) or stopped being slow (`false`), e.g. to tell another thread. */
  onSlow?(key: string, slow: boolean): void;
}

interface KeyState {
  inFlight: number;
  lingering: number;
  slowUntil: number;
  /** When an attempt of this key last began to linger (-Infinity: never). */
  lastLingerAt: number;
  /** What `onSlow` last said for this key. */
  flagged: boolean;
}

/**
 * @example
 * const share = new FairShare({ limit: 16, slowMs: 500, slowForMs: 60_000, maxLingering: 64, now: Date.now });
 * if (share.admits(key)) { share.started(key); run(job); } // later: share.ended(key, lingered)
 * const allowances = share.allowances(); // for the claim: slow keys and what they may still take
 */
export class FairShare {
  readonly #options: FairShareOptions;
  readonly #keys = new Map<string, KeyState>();
  #lingering = 0;

  constructor(options: FairShareOptions) {
    if (!(Number.isInteger(options.limit) && options.limit >= 1)) {
      throw new RangeError(`FairShare: limit must be a positive integer, got ${options.limit}`);
    }
    if (!(options.slowMs > 0))
      throw new RangeError(`FairShare: slowMs must be positive, got ${options.slowMs}`);
    this.#options = options;
  }

  /** Whether the key is slow now (a lingering attempt, or one within `slowForMs`). */
  isSlow(key: string): boolean {
    const state = this.#keys.get(key);
    return state !== undefined && this.#slow(state, this.#options.now());
  }

  /** Whether one more job of `key` may start now. */
  admits(key: string): boolean {
    const state = this.#keys.get(key);
    if (!state || !this.#slow(state, this.#options.now())) return true;
    return state.inFlight < this.#options.limit;
  }

  /** What each slow key may still take (0: none); keys not listed are not limited. */
  allowances(): Map<string, number> {
    const now = this.#options.now();
    const allowances = new Map<string, number>();
    for (const [key, state] of this.#keys) {
      if (this.#slow(state, now)) allowances.set(key, Math.max(0, this.#options.limit - state.inFlight));
    }
    return allowances;
  }

  /** The slow keys at their limit (a claim or a due-time look-up may skip their jobs). */
  saturated(): string[] {
    const keys: string[] = [];
    for (const [key, allowance] of this.allowances()) if (allowance === 0) keys.push(key);
    return keys;
  }

  /**
   * The keys `onSlow` last reported slow (and not yet recovered): what the owner of `onSlow` was told, so
   * that nobody needs to keep a copy of it.
   *
   * @example
   * share.flagged(); // ['inst_dead']
   */
  flagged(): string[] {
    const keys: string[] = [];
    for (const [key, state] of this.#keys) if (state.flagged) keys.push(key);
    return keys;
  }

  /** A job of `key` started. */
  started(key: string): void {
    const state = this.#state(key);
    state.inFlight += 1;
  }

  /**
   * An attempt of `key` has run `slowMs`: the key is slow while it lingers, and for `slowForMs` from now if
   * another attempt lingered within `slowForMs` before it. Returns whether the attempt may linger (give
   * its slot back), which it may while fewer than `maxLingering` do.
   */
  lingered(key: string): boolean {
    const state = this.#state(key);
    const now = this.#options.now();
    const may = this.#lingering < this.#options.maxLingering;
    // A second strike within the window, or one that may not even linger (the worker is full of them).
    if (now - state.lastLingerAt < this.#options.slowForMs || !may)
      state.slowUntil = now + this.#options.slowForMs;
    state.lastLingerAt = now;
    if (may) {
      this.#lingering += 1;
      state.lingering += 1;
    }
    this.#sync(key, state);
    return may;
  }

  /**
   * A job of `key` ended (`lingered`: it had given its slot back). Returns whether the key is slow: its
   * jobs wait outside the due-time lookup (held, or left queued at its limit), so the worker looks for
   * them now, while it has room. Not only at its limit: a slow key whose attempts end quickly (an endpoint
   * flagged by one slow answer) would otherwise get its next jobs only at the worker's idle check.
   */
  ended(key: string, lingered: boolean): boolean {
    const state = this.#keys.get(key);
    if (!state) return false;
    const now = this.#options.now();
    const wasSlow = this.#slow(state, now);
    state.inFlight = Math.max(0, state.inFlight - 1);
    if (lingered) {
      state.lingering = Math.max(0, state.lingering - 1);
      this.#lingering = Math.max(0, this.#lingering - 1);
    }
    this.#sync(key, state);
    return wasSlow;
  }

  /**
   * Tells `onSlow` of keys no longer slow, and forgets those idle with no lingering attempt within
   * `slowForMs`. Call now and then.
   */
  sweep(): void {
    const now = this.#options.now();
    for (const [key, state] of this.#keys) {
      if (this.#slow(state, now)) continue;
      this.#sync(key, state);
      if (state.inFlight === 0 && now - state.lastLingerAt >= this.#options.slowForMs) this.#keys.delete(key);
    }
  }

  /** Attempts lingering now, in all. */
  get lingering(): number {
    return this.#lingering;
  }

  #slow(state: KeyState, now: number): boolean {
    return state.lingering > 0 || now < state.slowUntil;
  }

  #state(key: string): KeyState {
    let state = this.#keys.get(key);
    if (!state) {
      state = {
        inFlight: 0,
        lingering: 0,
        slowUntil: 0,
        lastLingerAt: Number.NEGATIVE_INFINITY,
        flagged: false,
      };
      this.#keys.set(key, state);
    }
    return state;
  }

  #sync(key: string, state: KeyState): void {
    const slow = this.#slow(state, this.#options.now());
    if (slow === state.flagged) return;
    state.flagged = slow;
    this.#options.onSlow?.(key, slow);
  }
}
