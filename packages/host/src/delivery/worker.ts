/**
 * A storage-agnostic job loop: claims due jobs into free slots, runs them with bounded
 * concurrency, and sleeps on ONE timer armed for the exact time the next job falls due
 * (bounded by a safety-net idle check), so a retry leaves inside its window.
 */

/** Time source and timers (injectable for tests). */
export interface WorkerClock {
  /** Wall-clock ms, the same clock the queue's due times use. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process clock. */
export const systemClock: WorkerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Where an error reported to `onError` came from. */
export type WorkerErrorPhase = 'claim' | 'handle' | 'nextDueAt';

/** Options of {@link createWorker}. */
export interface WorkerOptions<J> {
  /** Claims (leases) at most `limit` due jobs. */
  claim(limit: number): Promise<J[]>;
  /** Runs one job. A rejection is reported to `onError`; the job's lease is the storage's business. */
  handle(job: J): Promise<void>;
  /** When the next not-yet-claimed job falls due (ms, `clock.now()` scale), or null if none. */
  nextDueAt(): Promise<number | null>;
  /** Most jobs handled at once. */
  concurrency: number;
  clock?: WorkerClock;
  /** Longest sleep, a safety net for work enqueued elsewhere without `notify()`. Default 1000 ms. */
  idleCheckMs?: number;
  /**
   * While at least half the slots are busy, a finishing handle or `notify()` does not claim at once:
   * claims are batched, at most this many ms later (or as soon as fewer than half the slots are
   * busy). Default 5 ms. Bounds the extra wait of a due job; cuts claims from one per job to one per batch.
   */
  batchDelayMs?: number;
  /** Errors of claim / handle / nextDueAt; the loop keeps going. */
  onError(error: unknown, phase: WorkerErrorPhase, job?: J): void;
  /**
   * Slots shared with another thread that hands this worker jobs it leased itself ({@link Worker.adopt}):
   * claims take from them (at most the free ones), every ended job gives its slot back, and `want` tells
   * whether this worker knows of due jobs in the queue (the other thread then leaves new jobs queued
   * behind them). `start()` gives `concurrency` slots.
   */
  slots?: WorkerSlots;
}

/** See {@link WorkerOptions.slots} (`DeliverySlots` fits). */
export interface WorkerSlots {
  take(max: number): number;
  give(count: number): void;
  want(wanted: boolean): void;
}

/** A running job loop. */
export interface Worker<J = unknown> {
  /** Starts claiming. Idempotent. */
  start(): void;
  /** New work was enqueued: claim now instead of at the next timer. */
  notify(): void;
  /**
   * Runs jobs that were leased to this worker elsewhere (they are not claimed again). With `slots`, each
   * holds a slot its sender took. A stopped worker gives the slots back and leaves the jobs to their
   * lease, which brings them back to the queue.
   */
  adopt(jobs: readonly J[]): void;
  /**
   * A job (re)scheduled by this process falls due at `at` (ms, `clock.now()` scale): wake then. Workers
   * do not re-read the next due time after every job, so a handle that reschedules must call this.
   */
  notifyDue(at: number): void;
  /**
   * Stops claiming. With `graceful` (default) resolves once the cycle in progress and every
   * in-flight handle have finished; otherwise resolves at once and leaves handles running.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
  /** Jobs being handled right now. */
  readonly inFlight: number;
  readonly state: 'idle' | 'running' | 'stopping' | 'stopped';
}

/**
 * Creates a job loop in the pg-boss worker shape, with exact wake-ups.
 *
 * @example
 * const worker = createWorker({
 *   claim: (limit) => queue.claim(limit),
 *   handle: (job) => deliver(job),
 *   nextDueAt: () => queue.nextDueAt(),
 *   concurrency: 8,
 *   onError: (error, phase) => log.error({ error, phase }, 'delivery worker'),
 * });
 * worker.start();
 * // after enqueueing: worker.notify();
 * await worker.stop({ graceful: true });
 */
export function createWorker<J>(options: WorkerOptions<J>): Worker<J> {
  const clock = options.clock ?? systemClock;
  const idleCheckMs = options.idleCheckMs ?? 1000;
  const concurrency = options.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`createWorker: concurrency must be a positive integer, got ${concurrency}`);
  }
  if (!(idleCheckMs > 0))
    throw new RangeError(`createWorker: idleCheckMs must be positive, got ${idleCheckMs}`);
  const batchDelayMs = options.batchDelayMs ?? 5;
  if (!(batchDelayMs >= 0))
    throw new RangeError(`createWorker: batchDelayMs must be >= 0, got ${batchDelayMs}`);
  /** Below this many handles in flight, free slots are filled at once. */
  const refillBelow = Math.max(1, Math.ceil(concurrency / 2));

  let state: Worker<J>['state'] = 'idle';
  /** The one wake-up timer: the next due time (or the idle check), at `timerAt`. */
  let timer: unknown;
  let timerAt = Number.POSITIVE_INFINITY;
  /**
   * The earliest due time announced by `notifyDue` since the timer last fired. A cycle that read
   * `nextDueAt` while a retry was being committed got the older answer: it must not arm later than this.
   */
  let announcedAt = Number.POSITIVE_INFINITY;
  let batchTimer: unknown;
  let immediate: ReturnType<typeof setImmediate> | undefined;
  let cycle: Promise<void> | undefined;
  let again = false;
  let dueMisses = 0;
  /** The next cycle must ask `nextDueAt` (at start, after the timer fired, after an error). */
  let needDue = true;
  /**
   * The last claim got fewer jobs than free slots: nothing else is due until a `notify()`, a
   * `notifyDue()` or the timer, so a finishing handle need not claim.
   */
  let drained = false;
  const slots = options.slots;
  const setDrained = (value: boolean) => {
    drained = value;
    slots?.want(!value);
  };
  const inFlight = new Set<Promise<void>>();

  const report = (error: unknown, phase: WorkerErrorPhase, job?: J) => {
    try {
      options.onError(error, phase, job);
    } catch {
      // an error reporter must not stop the loop
    }
  };

  const disarm = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
  };

  const armAt = (at: number) => {
    disarm();
    if (state !== 'running') return;
    timerAt = at;
    timer = clock.setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        announcedAt = Number.POSITIVE_INFINITY; // the next cycle reads every committed due time
        needDue = true;
        setDrained(false);
        trigger();
      },
      Math.max(1, Math.ceil(at - clock.now())),
    );
  };

  /** Runs one cycle at the end of this event-loop turn: wake-ups of the same turn share one claim. */
  const soon = () => {
    if (immediate !== undefined) return;
    immediate = setImmediate(() => {
      immediate = undefined;
      trigger();
    });
  };

  /**
   * A slot was freed or work was enqueued. With many slots free, claim now (end of this turn); with at
   * least half busy, claim in a batch: when the in-flight count drops below half, or `batchDelayMs`
   * from now at the latest. With every slot busy, the next finishing handle calls this again.
   */
  const wake = () => {
    if (state !== 'running') return;
    if (inFlight.size < refillBelow) {
      soon();
      return;
    }
    if (inFlight.size >= concurrency || batchTimer !== undefined) return;
    batchTimer = clock.setTimeout(() => {
      batchTimer = undefined;
      trigger();
    }, batchDelayMs);
  };

  const launch = (job: J) => {
    const run = (async () => {
      try {
        await options.handle(job);
      } catch (error) {
        report(error, 'handle', job);
      }
    })();
    inFlight.add(run);
    void run.finally(() => {
      inFlight.delete(run);
      slots?.give(1);
      if (!drained) wake(); // a slot is free and more may be due
    });
  };

  /** One pass: fill free slots, then make sure the timer is armed for the next due time. */
  const runCycle = async (): Promise<void> => {
    const room = concurrency - inFlight.size;
    // With shared slots, some of the room may be promised to jobs on their way here (adopt).
    const free = slots ? slots.take(room) : room;
    let claimed = 0;
    const claimFrom = clock.now();
    if (free > 0) {
      let jobs: J[];
      try {
        jobs = await options.claim(free);
      } catch (error) {
        slots?.give(free);
        report(error, 'claim');
        needDue = true;
        armAt(clock.now() + idleCheckMs);
        return;
      }
      slots?.give(free - jobs.length);
      // Claimed jobs are leased to us: handle them even if stop() was called meanwhile.
      for (const job of jobs) launch(job);
      claimed = jobs.length;
      setDrained(claimed < free);
    }
    if (state !== 'running') return;
    if (inFlight.size >= concurrency || free === 0) {
      // Full (or every free slot is promised to an adopted job): a finishing handle triggers the next cycle.
      // The timer is only a safety net.
      if (timer === undefined) armAt(clock.now() + idleCheckMs);
      return;
    }
    // Woken by notify() or a finishing handle: the armed timer still stands for the next due time
    // (work enqueued here was just claimed; retries announce themselves with notifyDue).
    if (!needDue && timer !== undefined) return;
    needDue = false;
    let next: number | null;
    try {
      next = await options.nextDueAt();
    } catch (error) {
      report(error, 'nextDueAt');
      needDue = true;
      armAt(clock.now() + idleCheckMs);
      return;
    }
    if (state !== 'running') return;
    const now = clock.now();
    const wait = next === null ? idleCheckMs : next - now;
    if (wait <= 0 && claimed < free) {
      needDue = true;
      if (claimed > 0 || (next !== null && next > claimFrom)) {
        // Work that fell due while this cycle ran (a steady stream of new jobs, each enqueued just after
        // the claim): progress, not a miss. Look again in a batch, as a notify() would.
        dueMisses = 0;
        armAt(Math.min(now + Math.max(1, batchDelayMs), announcedAt));
        return;
      }
      // Due before the claim began, yet nothing was claimed (another process holds it, or the clock is a
      // hair early): back off 1, 2, 4 ... ms so a pathological queue cannot spin the loop, never past a
      // due time announced meanwhile.
      dueMisses += 1;
      armAt(Math.min(now + Math.min(idleCheckMs, 2 ** (dueMisses - 1)), announcedAt));
      return;
    }
    dueMisses = 0;
    armAt(Math.min(now + Math.min(Math.max(wait, 0), idleCheckMs), announcedAt));
  };

  function trigger(): void {
    if (state !== 'running') return;
    if (cycle) {
      again = true;
      return;
    }
    if (batchTimer !== undefined) clock.clearTimeout(batchTimer); // this cycle fills every free slot
    batchTimer = undefined;
    cycle = runCycle()
      .catch((error: unknown) => report(error, 'claim'))
      .finally(() => {
        cycle = undefined;
        if (again) {
          again = false;
          trigger();
        }
      });
  }

  return {
    start() {
      if (state === 'running') return;
      // The shared slots are given once: a worker started again after stop() finds its slots given back.
      if (state === 'idle') slots?.give(concurrency);
      state = 'running';
      trigger();
    },
    notify() {
      setDrained(false);
      wake();
    },
    adopt(jobs) {
      if (state === 'stopped' || state === 'idle') {
        slots?.give(jobs.length);
        return;
      }
      for (const job of jobs) launch(job);
    },
    notifyDue(at: number) {
      if (state !== 'running') return;
      announcedAt = Math.min(announcedAt, at);
      if (at <= clock.now()) {
        setDrained(false);
        wake();
      } else if (at < timerAt) {
        armAt(at);
      }
    },
    async stop({ graceful = true } = {}) {
      if (state === 'idle' || state === 'stopped') {
        state = 'stopped';
        return;
      }
      state = 'stopping';
      slots?.want(true); // no more jobs handed over
      disarm();
      if (batchTimer !== undefined) clock.clearTimeout(batchTimer);
      batchTimer = undefined;
      if (immediate !== undefined) clearImmediate(immediate);
      immediate = undefined;
      if (graceful) {
        if (cycle) await cycle;
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      }
      state = 'stopped';
    },
    get inFlight() {
      return inFlight.size;
    },
    get state() {
      return state;
    },
  };
}
