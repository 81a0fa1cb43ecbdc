import { FairShare, SLOW_ATTEMPT_MS } from './fair-share.js';

/**
 * A storage-agnostic job loop: claims due jobs into free slots, runs them with bounded
 * concurrency, and sleeps on ONE timer armed for the exact time the next job falls due
 * (bounded by a safety-net idle check), so a retry leaves inside its window.
 */

export * from './job-loop-types.js';

import {
  type ClaimAnswer,
  type HandleTiming,
  type JobLoop,
  type JobLoopErrorPhase,
  type JobLoopOptions,
  type Launch,
  systemClock,
} from './job-loop-types.js';
import { Runway } from './runway.js';
import { SlowTimer, threadBusyMeter } from './slow-timer.js';

/**
 * Creates a job loop in the pg-boss worker shape, with exact wake-ups.
 *
 * @example
 * const loop = createJobLoop({
 *   claim: (limit) => queue.claim(limit),
 *   handle: (job) => deliver(job),
 *   nextDueAt: () => queue.nextDueAt(),
 *   concurrency: 8,
 *   onError: (error, phase) => log.error({ error, phase }, 'delivery worker'),
 * });
 * loop.start();
 * // after enqueueing: loop.notify();
 * await loop.stop({ graceful: true });
 */
export function createJobLoop<J>(options: JobLoopOptions<J>): JobLoop<J> {
  const clock = options.clock ?? systemClock;
  const idleCheckMs = options.idleCheckMs ?? 1000;
  const concurrency = options.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`createJobLoop: concurrency must be a positive integer, got ${concurrency}`);
  }
  if (!(idleCheckMs > 0))
    throw new RangeError(`createJobLoop: idleCheckMs must be positive, got ${idleCheckMs}`);
  const perKey = options.perKey;
  if (perKey && !(Number.isInteger(perKey.limit) && perKey.limit >= 1)) {
    throw new RangeError(`createJobLoop: perKey.limit must be a positive integer, got ${perKey.limit}`);
  }
  const slots = options.slots;
  if (Boolean(slots) !== Boolean(options.runway) || (slots && !perKey)) {
    throw new RangeError(
      'createJobLoop: shared slots come with a runway and perKey (jobs handed over wait there, or go back to the queue)',
    );
  }
  const runway = options.runway ? new Runway<J>(options.runway.jobs, options.runway.waitMs) : null;
  const slowMs = perKey?.slowMs ?? SLOW_ATTEMPT_MS;
  const busyMeter = perKey?.busyMeter ?? threadBusyMeter;
  const fair = perKey
    ? new FairShare({
        limit: perKey.limit,
        slowMs,
        slowForMs: perKey.slowForMs ?? 60_000,
        maxLingering: perKey.maxLingering ?? concurrency,
        now: () => clock.now(),
        ...(perKey.onSlow ? { onSlow: perKey.onSlow } : {}),
      })
    : null;
  const batchDelayMs = options.batchDelayMs ?? 5;
  if (!(batchDelayMs >= 0))
    throw new RangeError(`createJobLoop: batchDelayMs must be >= 0, got ${batchDelayMs}`);
  /** Below this many handles in flight, free slots are filled at once. */
  const refillBelow = Math.max(1, Math.ceil(concurrency / 2));

  let state: JobLoop<J>['state'] = 'idle';
  /** The one wake-up timer: the next due time (or the idle check), at `timerAt`. */
  let timer: unknown;
  let timerAt = Number.POSITIVE_INFINITY;
  /**
   * When the last claim with free slots began: it looked at everything this loop may take, as an idle check
   * would. The idle check runs `idleCheckMs` after the last such look, not on a clock of its own, so a loop
   * that keeps claiming makes no idle checks (docs/architecture.md, "Claims").
   */
  let lookedAt = Number.NEGATIVE_INFINITY;
  /** When the armed idle check was armed. */
  let idleArmedAt = Number.NEGATIVE_INFINITY;
  /** The next due time the last `nextDueAt` read answered (an idle check put off must not pass it). */
  let readDueAt = Number.POSITIVE_INFINITY;
  /**
   * The earliest due time announced by `notifyDue` since the timer last fired. A cycle that read
   * `nextDueAt` while a retry was being committed got the older answer: it must not arm later than this.
   */
  let announcedAt = Number.POSITIVE_INFINITY;
  /** How late the timer fired for the cycle it triggered (read and reset by that cycle). */
  let timerLateMs = 0;
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
  const inFlight = new Set<Promise<void>>();
  /** Jobs holding a slot: in flight, less those lingering (see `perKey`). */
  let active = 0;

  const report = (error: unknown, phase: JobLoopErrorPhase, job?: J) => {
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

  const armAt = (at: number, idle = false) => {
    disarm();
    if (state !== 'running') return;
    timerAt = at;
    if (idle) idleArmedAt = clock.now();
    timer = clock.setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        // An idle check after a claim that looked since it was armed: due again a full period after that look,
        // or at the next due time known (read or announced) if that comes first and the look did not cover it.
        if (idle && lookedAt >= idleArmedAt) {
          const check = lookedAt + idleCheckMs;
          const due = Math.min(readDueAt, announcedAt);
          if (due > lookedAt && due <= check) armAt(due);
          else armAt(check, true);
          return;
        }
        timerLateMs = Math.max(0, clock.now() - at);
        announcedAt = Number.POSITIVE_INFINITY; // the next cycle reads every committed due time
        needDue = true;
        drained = false;
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
    if (active < refillBelow) {
      soon();
      return;
    }
    if (active >= concurrency || batchTimer !== undefined) return;
    batchTimer = clock.setTimeout(() => {
      batchTimer = undefined;
      trigger();
    }, batchDelayMs);
  };

  /** Drops the claims `wake()` scheduled (the end-of-turn one and the batch timer), not yet run. */
  const cancelScheduled = () => {
    if (batchTimer !== undefined) clock.clearTimeout(batchTimer);
    batchTimer = undefined;
    if (immediate !== undefined) clearImmediate(immediate);
    immediate = undefined;
  };

  /**
   * Starts the jobs their key admits; gives the others back to the queue (and their shared slots, when
   * `shared`: jobs handed over hold one each, claimed jobs none). Returns how many started.
   */
  const admit = (jobs: readonly J[], how: Launch, shared: boolean): number => {
    if (!perKey || !fair) {
      for (const job of jobs) launch(job, null, how, shared);
      return jobs.length;
    }
    const excess: J[] = [];
    for (const job of jobs) {
      const key = perKey.keyOf(job);
      if (fair.admits(key)) launch(job, key, how, shared);
      else excess.push(job);
    }
    if (excess.length > 0) {
      if (shared) slots?.give(excess.length);
      perKey.release(excess).then(
        () => {
          // Back in the queue. A key still at its limit is looked at again when one of its jobs ends.
          if (excess.some((job) => fair.admits(perKey.keyOf(job)))) {
            drained = false;
            wake();
          }
        },
        (error: unknown) => report(error, 'release'), // still leased to us: their lease brings them back
      );
    }
    return jobs.length - excess.length;
  };

  /** `shared`: the job holds one of the shared slots (it was handed over), given back when it ends. */
  const launch = (job: J, key: string | null, how: Launch, shared: boolean) => {
    active += 1;
    let lingering = false;
    // With a fair share, an attempt that runs past slowMs gives its slot back (see FairShare): timed from
    // the start of the handle, or between the handle's own begin() and end() (perKey.timedByHandle).
    const slow =
      key === null || !fair
        ? null
        : new SlowTimer({
            clock,
            busyMeter,
            slowMs,
            onSlow: () => {
              if (!fair.lingered(key)) return;
              lingering = true;
              active -= 1;
              if (shared) slots?.give(1);
              if (drained) pump();
              wake();
            },
          });
    const stopTiming = () => slow?.stop();
    const startTiming = () => {
      if (!lingering) slow?.start();
    };
    if (!perKey?.timedByHandle) startTiming();
    /** The slot was given back before the handle ended (`timing.release()`). */
    let released = false;
    /** The job's slot and its key's place, given back once: at `release()` or at the handle's end. */
    const giveBack = () => {
      stopTiming();
      if (!lingering) {
        active -= 1;
        if (shared) slots?.give(1);
      }
      // A slow key's jobs wait outside the due-time lookup (held, or left at its limit): look for them now.
      if (key !== null && fair?.ended(key, lingering)) drained = false;
      // A slot is free: due work in the queue first (more may be due), else the runway's next job.
      if (!drained) wake();
      else pump();
    };
    const release = () => {
      if (released || lingering) return;
      released = true;
      giveBack();
    };
    const timing: HandleTiming = { begin: startTiming, end: stopTiming, release, launch: how };
    if (key !== null) fair?.started(key);
    const run = (async () => {
      try {
        await options.handle(job, timing);
      } catch (error) {
        report(error, 'handle', job);
      }
    })();
    inFlight.add(run);
    void run.finally(() => {
      inFlight.delete(run);
      if (!released) giveBack();
    });
  };

  /**
   * Jobs handed over that never started go back to the queue (their slots to the sender); then the queue's
   * due work is looked at. Resolves when they are back (a failure is reported: their lease brings them back).
   */
  const giveBackToQueue = async (jobs: J[]): Promise<void> => {
    if (jobs.length === 0 || !perKey) return;
    slots?.give(jobs.length);
    try {
      await perKey.release(jobs);
      drained = false;
      wake();
    } catch (error) {
      report(error, 'release');
    }
  };

  /** Starts the runway's waiting jobs in the free slots; those that waited too long go back to the queue. */
  const pump = (): void => {
    if (!runway || runway.length === 0) return;
    const now = clock.now();
    const { run, stale } = runway.take(Math.max(0, concurrency - active), now);
    if (stale.length > 0) void giveBackToQueue(stale);
    if (run.length > 0) admit(run, { claimStartedAt: now, claimedAt: now, timerLateMs: 0 }, true);
  };

  /** One pass: fill free slots, then make sure the timer is armed for the next due time. */
  const runCycle = async (): Promise<void> => {
    fair?.sweep();
    // The free slots themselves: the sender's shared slots bound only what it hands over (it may hold them
    // all for jobs on their way or waiting), so a due retry never waits for them.
    const free = concurrency - active;
    let claimed = 0;
    const claimFrom = clock.now();
    const wokeLate = timerLateMs;
    timerLateMs = 0;
    if (free > 0) {
      let answer: ClaimAnswer<J>;
      try {
        answer = fair ? await options.claim(free, fair.allowances()) : await options.claim(free);
      } catch (error) {
        report(error, 'claim');
        needDue = true;
        armAt(clock.now() + idleCheckMs);
        return;
      }
      const jobs = 'jobs' in answer ? answer.jobs : answer;
      lookedAt = claimFrom;
      // Claimed jobs are leased to us: handle them even if stop() was called meanwhile. They hold no shared slot.
      claimed = admit(
        jobs,
        { claimStartedAt: claimFrom, claimedAt: clock.now(), timerLateMs: wokeLate },
        false,
      );
      // More due work may be left: the queue says so, or (where it does not tell) the claim was full. Jobs that
      // went back for their key's limit are looked at again when a job of that key ends.
      drained = 'jobs' in answer ? !answer.moreDue : jobs.length < free;
      // The other thread queues new jobs behind due work only while it waits for slots: a claim that came back
      // full (here), or no free slot (below). Due work the free slots take at once, such as a retry falling due,
      // is no reason to (docs/architecture.md, "The runway").
      slots?.want(!drained);
      if (drained) pump();
      // Work announced as due (notifyDue) that this claim did not get may be locked by another process's
      // claim or a transaction dying with its host: look at the next due time again (and back off while
      // it stays unclaimable) instead of waiting for the idle check.
      if (jobs.length < free && announcedAt <= claimFrom) needDue = true;
    }
    if (state !== 'running') return;
    if (active >= concurrency || free === 0) {
      // Full (or every free slot is promised to an adopted job): a finishing handle triggers the next cycle.
      // The timer is only a safety net. Due work left waits for a slot: nothing more is handed over meanwhile.
      if (!drained) slots?.want(true);
      if (timer === undefined) armAt(clock.now() + idleCheckMs, true);
      return;
    }
    // Woken by notify() or a finishing handle: the armed timer still stands for the next due time
    // (work enqueued here was just claimed; retries announce themselves with notifyDue).
    if (!needDue && timer !== undefined) return;
    needDue = false;
    // The read sees every due time committed before it starts, so announcements made before it are in its
    // answer; only those heard while it runs may not be (and a failed read forgets none).
    const announcedBefore = announcedAt;
    announcedAt = Number.POSITIVE_INFINITY;
    let next: number | null;
    try {
      next = await options.nextDueAt(fair ? fair.saturated() : []);
    } catch (error) {
      announcedAt = Math.min(announcedAt, announcedBefore);
      report(error, 'nextDueAt');
      needDue = true;
      armAt(clock.now() + idleCheckMs);
      return;
    }
    if (state !== 'running') return;
    readDueAt = next ?? Number.POSITIVE_INFINITY;
    const now = clock.now();
    const wait = next === null ? Number.POSITIVE_INFINITY : next - now;
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
    const idle = wait > idleCheckMs && now + idleCheckMs < announcedAt;
    armAt(Math.min(now + Math.min(Math.max(wait, 0), idleCheckMs), announcedAt), idle);
  };

  function trigger(): void {
    if (state !== 'running') return;
    if (cycle) {
      again = true;
      return;
    }
    // This cycle's claim fills every free slot: a batch timer or an end-of-turn cycle scheduled before it
    // starts is answered by it (one left pending would claim again, and after a draining claim come back empty).
    cancelScheduled();
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
    slowKeys: () => fair?.flagged() ?? [],
    start() {
      if (state === 'running') return;
      // The shared slots are given once: a job loop started again after stop() finds its slots given back.
      if (state === 'idle') slots?.give(concurrency + (runway?.room ?? 0));
      state = 'running';
      trigger();
    },
    notify() {
      drained = false;
      wake();
    },
    adopt(jobs) {
      if (state === 'stopped' || state === 'idle') {
        slots?.give(jobs.length);
        return;
      }
      if (runway) {
        if (state === 'running') {
          runway.push(jobs, clock.now());
          pump();
        } else void giveBackToQueue([...jobs]); // stopping: starts nothing new
        return;
      }
      // No shared slots: the jobs start at once, holding none.
      const now = clock.now();
      admit(jobs, { claimStartedAt: now, claimedAt: now, timerLateMs: 0 }, false);
    },
    notifyDue(at: number) {
      if (state !== 'running') return;
      announcedAt = Math.min(announcedAt, at);
      if (at <= clock.now()) {
        drained = false;
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
      const released = giveBackToQueue(runway?.drain() ?? []);
      disarm();
      cancelScheduled();
      if (graceful) {
        await released;
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
