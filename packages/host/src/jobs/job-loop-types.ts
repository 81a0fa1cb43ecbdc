import type { TimerClock } from '../storage/index.js';

/**
 * The options and shapes of the job loop (`createJobLoop` in job-loop.ts).
 */

/**
 * Time source and timers (injectable for tests); `now()` is wall-clock ms, the same clock the queue's due
 * times use.
 */
export type JobLoopClock = TimerClock;

/** The process clock (its timers keep the process alive, unlike the storage's `systemTimerClock`). */
export const systemClock: JobLoopClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Where an error reported to `onError` came from. */
export type JobLoopErrorPhase = 'claim' | 'handle' | 'nextDueAt' | 'release';

/**
 * What a claim answers: the jobs, or the jobs and whether due jobs were left behind at the limit
 * (`moreDue`). With a plain array the loop guesses: a full claim may have left some, so the next free
 * slot claims again (and comes back empty when the claim had taken the last due job).
 *
 * @example
 * const answer: ClaimAnswer<Job> = { jobs: [job], moreDue: false }; // took every due job
 */
export type ClaimAnswer<J> = J[] | { jobs: J[]; moreDue: boolean };

/** Options of {@link createJobLoop}. */
export interface JobLoopOptions<J> {
  /**
   * Claims (leases) at most `limit` due jobs; with `perKey`, `allowances` caps the keys that are slow now:
   * at most that many jobs of each (none for 0); keys not in it are not capped.
   */
  claim(limit: number, allowances?: ReadonlyMap<string, number>): Promise<ClaimAnswer<J>>;
  /**
   * Runs one job. A rejection is reported to `onError`; the job's lease is the storage's business. With
   * `perKey.timedByHandle`, the handle tells through `timing` which part of it counts as the job's own time
   * (for deliveries: the HTTP exchange, not the host's storage work).
   */
  handle(job: J, timing: HandleTiming): Promise<void>;
  /**
   * When the next not-yet-claimed job falls due (ms, `clock.now()` scale), or null if none; jobs of the
   * `exclude`d keys do not count (their next chance is a slot of their own freeing up).
   */
  nextDueAt(exclude: readonly string[]): Promise<number | null>;
  /**
   * Most jobs holding a slot at once. A job that gave its slot back (`timing.release()`, or lingering past
   * `perKey.slowMs`) no longer counts, though its handle may still be running.
   */
  concurrency: number;
  clock?: JobLoopClock;
  /**
   * The idle check, a safety net for work enqueued elsewhere without `notify()`: a claim and a next-due
   * read this long after the last claim with free slots (a loop that keeps claiming makes none). Default
   * 1000 ms.
   */
  idleCheckMs?: number;
  /**
   * While at least half the slots are busy, a finishing handle or `notify()` does not claim at once:
   * claims are batched, at most this many ms later (or as soon as fewer than half the slots are
   * busy). Default 5 ms. Bounds the extra wait of a due job; cuts claims from one per job to one per batch.
   */
  batchDelayMs?: number;
  /** Errors of claim / handle / nextDueAt; the loop keeps going. */
  onError(error: unknown, phase: JobLoopErrorPhase, job?: J): void;
  /**
   * Slots shared with another thread that hands this job loop jobs it leased itself ({@link JobLoop.adopt}),
   * one slot taken for each (needs a `runway` and `perKey`): `start()` gives `concurrency` + `runway.jobs`
   * of them, every job handed over gives its slot back when it ends, and `want` tells whether due jobs in
   * the queue wait for slots (a claim came back full, or found none free: the other thread then leaves new
   * jobs queued behind them). Claims hold none of them: a claim takes the free slots themselves
   * (`concurrency` less the jobs running).
   */
  slots?: JobLoopSlots;
  /**
   * A fair share of the slots per key (for deliveries: per installation), so that one slow or dead
   * endpoint, whose attempts each hold a slot until they time out, cannot hold up the others: an attempt
   * running longer than `slowMs` gives its slot back and makes its key slow; a slow key runs at most
   * `limit` jobs at once (see `FairShare`). Claims take what each slow key has left; jobs claimed or adopted
   * beyond it go back to the queue through `release` (untouched, due as they were).
   */
  perKey?: JobLoopPerKey<J>;
  /**
   * Where jobs handed over wait for a slot (given with `slots`, and only with them): an adopted job that
   * finds every slot busy (taken by claims, or by other jobs handed over) waits, in order, until one frees
   * up; `jobs` (0 or more) is how many more than `concurrency` the sender may hand over at once. Due work in
   * the queue comes first: a freed slot goes to a claim while the loop knows of any, to the waiting jobs
   * otherwise. A job that waited longer than `waitMs` goes back to the queue through `perKey.release`
   * instead of starting (its lease was taken when it was handed over), as do the jobs still waiting when
   * the loop stops (docs/architecture.md, "The runway").
   */
  runway?: { jobs: number; waitMs: number };
}

/** See {@link JobLoopOptions.perKey}. */
export interface JobLoopPerKey<J> {
  keyOf(job: J): string;
  /** Most jobs of a slow key in flight at once (>= 1). */
  limit: number;
  /** Gives jobs back to the queue (they were leased to this job loop and never started). */
  release(jobs: J[]): Promise<void>;
  /** An attempt running longer than this gives its slot back and makes its key slow while it runs. Default 500 ms. */
  slowMs?: number;
  /**
   * How long a key stays slow after an attempt of it lingered within this long of another one (see
   * FairShare). Default 60 000 ms.
   */
  slowForMs?: number;
  /** Most attempts that gave their slot back, in all. Default `concurrency`. */
  maxLingering?: number;
  /**
   * A key became slow or stopped being slow (e.g. so that the sender of adopted jobs leaves a slow key's
   * jobs in the queue, where claims take them within its share).
   */
  onSlow?(key: string, slow: boolean): void;
  /**
   * The handle times itself: only the time between `timing.begin()` and `timing.end()` counts towards
   * `slowMs` (a handle that never calls `begin` is never slow). Default false: the whole handle counts.
   * Deliveries time the HTTP exchange, so a slow database never makes a healthy endpoint slow.
   */
  timedByHandle?: boolean;
  /**
   * How busy this thread's event loop was while an attempt was timed (see {@link BusyMeter}); an attempt
   * that ran `slowMs` on a thread busy all along gets more time before it counts as lingering. Default:
   * `perf_hooks`' `eventLoopUtilization` of the calling thread.
   */
  busyMeter?: BusyMeter;
}

/**
 * The share of time a thread's event loop was busy since a mark (0 to 1), to tell an endpoint that is slow
 * from a thread too busy to read its answer.
 *
 * @example
 * const meter: BusyMeter = { mark: () => performance.eventLoopUtilization(), busySince: (m) => performance.eventLoopUtilization(m as EventLoopUtilization).utilization };
 */
export interface BusyMeter {
  mark(): unknown;
  busySince(mark: unknown): number;
}

/**
 * What a handle tells the job loop about its own timing (see {@link JobLoopPerKey.timedByHandle}): the part
 * between `begin()` and `end()` is what the fair share measures against `slowMs`.
 */
export interface HandleTiming {
  /** The measured part starts now (e.g. the request is about to be sent). */
  begin(): void;
  /** The measured part ended (e.g. the response was read, or the request failed). */
  end(): void;
  /**
   * The job no longer needs its slot: what is left of the handle is the host's own bookkeeping (for a
   * delivery: recording the attempt, which waits to be written with others). The slot and the key's place
   * in the fair share are given back now; the handle still counts as in flight for a graceful `stop()`.
   * Idempotent; nothing for a job that already gave its slot back (lingering).
   */
  release(): void;
  /** How the job got here: the claim that took it (see {@link Launch}). */
  readonly launch: Launch;
}

/**
 * How a job came to run, on the job loop's clock: when the claim that took it began and returned, and how
 * late the timer that woke that cycle fired (0 when no timer woke it). A job handed over already leased
 * (`adopt`) has its arrival as both claim times.
 */
export interface Launch {
  readonly claimStartedAt: number;
  readonly claimedAt: number;
  readonly timerLateMs: number;
}

/**
 * See {@link JobLoopOptions.slots} (`DeliverySlots` fits): the job loop gives slots (at start, and as jobs
 * handed over end or go back) and says whether it wants queued work first; the sender takes them.
 */
export interface JobLoopSlots {
  give(count: number): void;
  want(wanted: boolean): void;
}

/** A running job loop. */
export interface JobLoop<J = unknown> {
  /** Starts claiming. Idempotent. */
  start(): void;
  /** New work was enqueued: claim now instead of at the next timer. */
  notify(): void;
  /**
   * Runs jobs that were leased to this job loop elsewhere (they are not claimed again). With `slots`, each
   * holds a slot its sender took, and those beyond the free slots wait in the runway for one. A stopped job
   * loop gives the slots back and leaves the jobs to their lease, which brings them back to the queue.
   */
  adopt(jobs: readonly J[]): void;
  /**
   * A job (re)scheduled by this process falls due at `at` (ms, `clock.now()` scale): wake then. Job loops
   * do not re-read the next due time after every job, so a handle that reschedules must call this.
   */
  notifyDue(at: number): void;
  /**
   * Stops claiming. With `graceful` (default) resolves once the cycle in progress and every
   * in-flight handle have finished; otherwise resolves at once and leaves handles running.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
  /**
   * The keys its fair share (`perKey`) holds for slow, as `onSlow` last reported them ([] without `perKey`).
   * The fair share is the one owner of this on the thread that runs the loop.
   */
  slowKeys(): string[];
  /** Jobs being handled right now. */
  readonly inFlight: number;
  readonly state: 'idle' | 'running' | 'stopping' | 'stopped';
}
