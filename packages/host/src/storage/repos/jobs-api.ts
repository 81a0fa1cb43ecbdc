import type { JobKind, JobRecord, JobState, JobWithAttempts, TerminalJobState } from '../types.js';

/** A job to enqueue. `id` defaults to `dlv_...` (deliver) or `job_...` (invoke); `runAt` to now. */
export interface EnqueueInput {
  id?: string;
  kind: JobKind;
  installationId: string;
  eventId?: string | null;
  payload: Record<string, unknown>;
  runAt?: number;
  /**
   * Inserts the job already claimed (`running`, leased until `until` to the holder of `token`), for a
   * worker the caller hands it to directly. If that worker never finishes it, the lease expires and the
   * job is claimed again, as after any crash.
   */
  lease?: { until: number; token: string };
  /**
   * Inserts the job `held` (its endpoint is slow now): out of the due-time index that `claim` scans, so a
   * slow endpoint's growing backlog costs the other installations' claims nothing. `claimHeld` takes its
   * jobs per installation; `unhold` makes them `queued` again. Not with `lease`.
   */
  hold?: boolean;
}

/** Options of `claim`. */
export interface ClaimOptions {
  kinds: readonly JobKind[];
  limit: number;
  leaseMs: number;
  now: number;
  /**
   * Claims what falls due up to this time (default `now`; never before it): queued jobs whose `runAt` and
   * leases whose end is at most `dueBy`. For a worker that claims a little ahead and then waits for each
   * job's due time itself, so the claim's own latency is spent before the due time (docs/operations.md,
   * "Retry punctuality"). The new lease runs from `now`.
   */
  dueBy?: number;
  /**
   * At most this many jobs of each installation listed (0: none of it; its due jobs are skipped, which
   * costs a scan past them, so list only the installations to cap); installations not listed are not
   * capped.
   */
  perInstallation?: ReadonlyMap<string, number>;
  /**
   * The claim answers another host's call for help (`HomeHelp`): it takes other homes' first attempts
   * without waiting out their grace (PostgreSQL; docs/architecture.md, "Claims"). Default false.
   */
  help?: boolean;
}

/** One attempt to record. `responseExcerpt` is cut to its first 4096 UTF-8 bytes. */
export interface AttemptInput {
  series: number;
  number: number;
  startedAt: number;
  durationMs: number;
  statusCode?: number | null;
  error?: string | null;
  responseExcerpt?: string | null;
}

/**
 * The jobs a claim took (retries first, then oldest `runAt`), with the routing epoch its statement read:
 * a read of where a job goes made at that epoch or later is current for it (storage/README.md, "Routing
 * epoch"). `routingEpoch` is null when the claim took nothing.
 *
 * @example
 * const jobs = await storage.jobs.claim({ kinds: ['deliver'], limit: 8, leaseMs: 60_000, now: Date.now() });
 * jobs.length; // 0 to 8
 * jobs.routingEpoch; // e.g. 42 (null if jobs is empty)
 * jobs.moreDue; // true: claim again; false: nothing else was due (null on SQLite)
 */
export interface ClaimedJobs extends Array<JobRecord> {
  readonly routingEpoch: number | null;
  /**
   * Whether due jobs were left behind at the claim's `limit`: true when more were due than it took, false
   * when it took every due job it could see, null where the dialect does not tell (SQLite: the caller
   * guesses from a full claim). A worker that trusts `false` skips the claim that would come back empty.
   */
  readonly moreDue: boolean | null;
}

/** How an attempt ends its claim: a final state, or back in the queue at `runAt` (a retry). */
export type FinishOutcome =
  | { state: TerminalJobState; lastError?: string | null }
  | { runAt: number; lastError: string | null };

/**
 * A job to complete/reschedule: its id (guard: still `running`), or the claimed job itself / `{ id, leaseToken }`
 * (guard: still `running` AND still under this claim, so a worker whose lease was taken over cannot finish it).
 */
export type JobRef = string | { id: string; leaseToken: string | null };

/** Options of `listDeliveries` (newest first; `since` inclusive, `until` exclusive, on `createdAt`). */
export interface DeliveryListOptions {
  state?: JobState;
  since?: number;
  until?: number;
  /** Default 50, at most 500. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Default 'deliver'. */
  kind?: JobKind;
}

/** One item of `finishAttempts`. */
export interface FinishItem {
  job: JobRef;
  attempt: AttemptInput;
  outcome: FinishOutcome;
}

/** A page of jobs with their attempts. */
export interface DeliveryPage {
  items: JobWithAttempts[];
  nextCursor: string | null;
}

/** Options of `redeliverRange` (`since` inclusive, `until` exclusive, on `createdAt`). */
export interface RedeliverRangeOptions {
  /** Default ['failed', 'exhausted']. */
  states?: readonly TerminalJobState[];
  since?: number;
  until?: number;
  /** Default 'deliver'. */
  kind?: JobKind;
}

/**
 * Unfinished jobs of one kind: queued (of which `due` may run now), held (a slow endpoint's, waiting for
 * its share), running, and the oldest due `runAt` of the queued ones.
 */
export interface QueueStats {
  kind: JobKind;
  queued: number;
  held: number;
  due: number;
  running: number;
  oldestDueAt: number | null;
}

/**
 * The durable queue every outbound call goes through.
 *
 * Worker loop:
 * @example
 * const [job] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 60_000, now: Date.now() });
 * if (job) {
 *   const attempt = { series: job.series, number: job.attempt + 1, startedAt, durationMs, statusCode: 500 };
 *   await storage.jobs.finishAttempt(job, attempt, { runAt: Date.now() + 1000, lastError: 'HTTP 500' }, Date.now());
 * }
 * const wakeAt = await storage.jobs.nextDueAt(['deliver']); // set a timer for it
 */
export interface QueueRepo {
  /** Inserts queued jobs (call it on the transaction handle that also inserts the event). */
  enqueue(jobs: readonly EnqueueInput[], now?: number): Promise<JobRecord[]>;
  /**
   * Atomically takes up to `limit` due jobs (queued with runAt <= now, or running with an expired lease),
   * marks them running with leaseUntil = now + leaseMs and a fresh `leaseToken`. Due retries (attempt > 0)
   * and expired leases come before first attempts, so a backlog cannot push retries out of their windows;
   * oldest runAt first within each. The result carries the routing epoch the claim read ({@link ClaimedJobs}).
   */
  claim(options: ClaimOptions): Promise<ClaimedJobs>;
  /**
   * Asks the other hosts (PostgreSQL) to help with this process's jobs of `kind` due now: it cannot keep
   * up (`HomeHelp`). Nothing on SQLite.
   *
   * @example
   * await storage.jobs.askForHelp('deliver');
   */
  askForHelp(kind: JobKind): Promise<void>;
  /** Finishes a running job; false when it was not running (anymore) or the lease was taken over. */
  complete(job: JobRef, state: TerminalJobState, now: number, lastError?: string | null): Promise<boolean>;
  /**
   * In ONE transaction: records (idempotently, keyed by series+number) the attempt and advances
   * `job.attempt` to its number (always), then ends the claim with `outcome` — a final state, or back in the
   * queue at `runAt` (a retry) — under the same guard as `complete`. Returns false when the job was not
   * running or the lease was taken over (the attempt is still recorded).
   */
  finishAttempt(job: JobRef, attempt: AttemptInput, outcome: FinishOutcome, now: number): Promise<boolean>;
  /**
   * Several `finishAttempt`s in ONE transaction (a delivery worker finishing the attempts of one moment
   * together); one result per item, in order. All or nothing: a throw leaves none of them recorded.
   */
  finishAttempts(items: readonly FinishItem[], now: number): Promise<boolean[]>;
  /**
   * Deletes up to `limit` jobs in a final state (succeeded, failed, exhausted, cancelled) whose last
   * attempt was scheduled before `before` (oldest first), with their attempts; returns how many jobs.
   * Queued and running jobs are never pruned, however old.
   */
  prune(before: number, limit: number): Promise<number>;
  /**
   * The earliest time a job of `kinds` becomes claimable (queued runAt, or running leaseUntil), or null;
   * jobs of the `exclude`d installations do not count.
   */
  nextDueAt(kinds: readonly JobKind[], exclude?: readonly string[]): Promise<number | null>;
  /** The unfinished jobs now, per kind that has any (for monitoring: `GET /metrics`). */
  queueStats(now: number): Promise<QueueStats[]>;
  /**
   * Claims (as `claim` does: `running`, leased) up to `limit` of an installation's held jobs, oldest
   * `runAt` first, through the `jobs_held` index; with the routing epoch the claim read ({@link ClaimedJobs}).
   */
  claimHeld(options: {
    installationId: string;
    limit: number;
    leaseMs: number;
    now: number;
  }): Promise<ClaimedJobs>;
  /**
   * Makes held jobs `queued` again: those of `installationId`, or of every installation but the `except`ed
   * ones (the sweep after a restart, or of another host's holds). Returns how many.
   */
  unhold(which: { installationId: string } | { except: readonly string[] }, now: number): Promise<number>;
  /**
   * Gives claimed jobs back to the queue untouched (queued again, due as they were, no attempt recorded),
   * each only while still under its claim (`leaseToken`); returns how many. For a worker that claimed more
   * than it may run now.
   */
  release(jobs: readonly { id: string; leaseToken: string | null }[], now: number): Promise<number>;
  /**
   * Puts claimed jobs back in the queue due at their `runAt`, untouched otherwise (no attempt recorded, the
   * attempt count unchanged), each only while still under its claim (`leaseToken`); returns how many. For a
   * worker that may not send them yet (an endpoint's rate limit).
   */
  defer(
    jobs: readonly { id: string; leaseToken: string | null; runAt: number }[],
    now: number,
  ): Promise<number>;
  /** Cancels the installation's queued and running jobs; returns the count. */
  cancelForInstallation(installationId: string, now?: number): Promise<number>;
}

/**
 * The delivery log: what was sent to an installation, with every attempt, and redelivery.
 *
 * @example
 * const { items, nextCursor } = await storage.jobs.listDeliveries('inst_1', { state: 'failed' });
 * if (items[0]) await storage.jobs.redeliver(items[0].id, Date.now());
 */
export interface DeliveryLogRepo {
  /** The installation's jobs (of `kind`, default `deliver`), newest first, with their attempts; paged. */
  listDeliveries(installationId: string, options?: DeliveryListOptions): Promise<DeliveryPage>;
  /** One job with its attempts, or null. */
  getJob(id: string): Promise<JobWithAttempts | null>;
  /** Requeues a succeeded/failed/exhausted job as a new series (attempt 0, runAt now). not_found / conflict. */
  redeliver(jobId: string, now: number): Promise<JobRecord>;
  /** Requeues, as new series, the installation's jobs in `states` created in the range; returns the count. */
  redeliverRange(installationId: string, options: RedeliverRangeOptions, now: number): Promise<number>;
}

/**
 * `storage.jobs`: the durable queue ({@link QueueRepo}, repos/queue.ts) and the delivery log
 * ({@link DeliveryLogRepo}, repos/deliveries.ts) over the same `jobs` table.
 *
 * @example
 * const jobs: JobsRepo = { ...queueRepo(sql), ...deliveriesRepo(sql) };
 */
export type JobsRepo = QueueRepo & DeliveryLogRepo;
