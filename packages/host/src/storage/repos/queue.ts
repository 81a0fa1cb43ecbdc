// The durable queue's repository: enqueue, claim, finish, release, hold, prune, cancel, and its statistics.
// All of the queue's SQL is in this file (the claim lanes and the queue statistics included); the row shape
// is in job-rows.ts, the delivery log (list, get, redeliver) in deliveries.ts.
import { StorageError } from '../errors.js';
import { newLeaseToken, newSortableId } from '../ids.js';
import { HOME_GRACE_MS, homeOf, signalDue, signalHelp } from '../queue-signals.js';
import { num, numOrNull, pruneLimit, str } from '../rows.js';
import { placeholders, type Row, type Sql, type SqlValue } from '../sql.js';
import type { JobKind, JobRecord, TerminalJobState } from '../types.js';
import { COLUMNS, TERMINAL, toJob } from './job-rows.js';
import type {
  AttemptInput,
  ClaimedJobs,
  EnqueueInput,
  FinishItem,
  FinishOutcome,
  JobRef,
  QueueRepo,
} from './jobs-api.js';
import { finishAll, finishGroup, refGuard } from './queue-finish.js';
import { epochOf, ROUTING_EPOCH } from './routing-epoch.js';

/** Rows per multi-row INSERT of `enqueue` (12 bound values each). */
const ENQUEUE_CHUNK = 100;
/** One job's row of an enqueue INSERT (`COLUMNS` order, then `home`; `enqueueValues` and the home). */
const ENQUEUE_ROW = '(?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, NULL, ?, ?, NULL, ?)';

/** The records `enqueue` stores for `inputs` at `now` (ids made here unless given). */
export function toJobRecords(inputs: readonly EnqueueInput[], now: number): JobRecord[] {
  return inputs.map(
    (input): JobRecord => ({
      id: input.id ?? newSortableId(input.kind === 'deliver' ? 'dlv' : 'job', now),
      kind: input.kind,
      installationId: input.installationId,
      eventId: input.eventId ?? null,
      payload: input.payload,
      state: input.lease ? 'running' : input.hold ? 'held' : 'queued',
      series: 1,
      attempt: 0,
      runAt: input.runAt ?? now,
      leaseUntil: input.lease?.until ?? null,
      leaseToken: input.lease?.token ?? null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    }),
  );
}

/** The 11 bound values of one job's row in `ENQUEUE_ROW` order. */
export function enqueueValues(job: JobRecord): SqlValue[] {
  return [
    job.id,
    job.kind,
    job.installationId,
    job.eventId,
    JSON.stringify(job.payload),
    job.state,
    job.runAt,
    job.leaseUntil,
    job.leaseToken,
    job.createdAt,
    job.updatedAt,
  ];
}

/**
 * Inserts job records made by {@link toJobRecords}: one multi-row INSERT per 100, atomic by itself; more
 * than one in a transaction (or the caller's). This process is their home (`homeOf`).
 */
export async function insertJobRecords(sql: Sql, jobs: readonly JobRecord[]): Promise<void> {
  const chunks: JobRecord[][] = [];
  for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) chunks.push(jobs.slice(i, i + ENQUEUE_CHUNK));
  const home = homeOf(sql.dialect);
  const insert = async (db: Sql) => {
    for (const chunk of chunks) {
      await db.run(
        `INSERT INTO jobs (${COLUMNS}, home) VALUES ${chunk.map(() => ENQUEUE_ROW).join(', ')}`,
        chunk.flatMap((job) => [...enqueueValues(job), home]),
      );
    }
  };
  if (chunks.length === 1) await insert(sql);
  else if (chunks.length > 1) await sql.transaction(insert);
}

/**
 * After jobs were stored (after the commit, or at the commit of the caller's transaction): tells the
 * other hosts of the queued ones due later (those due now are this process's: `signalDue`; leased ones are
 * in a local worker's hands, held ones wait for their endpoint's share). Nothing on SQLite (one host).
 */
export function signalEnqueued(sql: Sql, jobs: readonly JobRecord[]): Promise<void> {
  return signalDue(
    sql,
    jobs.filter((job) => job.state === 'queued'),
  );
}

function checkKinds(kinds: readonly JobKind[]): void {
  if (kinds.length === 0) throw new StorageError('invalid', 'kinds must list at least one job kind');
}

/**
 * The claim: one UPDATE over three lanes per kind, each one range of a partial index (kind first, then the
 * lane's time and id; migration 10) read in order and cut at `limit`: due retries (`jobs_retry_due`) and
 * expired leases (`jobs_leases`: a crashed worker's jobs) first, then first attempts (`jobs_first_due`);
 * oldest first within a lane. Parameters: {@link claimValues}.
 *
 * On PostgreSQL the claim makes this process the jobs' home, and takes another home's first attempts only
 * once they are `HOME_GRACE_MS` past due (`run_at <= dueBy - HOME_GRACE_MS`; jobs without a home at once):
 * hosts do not race each other for the work each has just queued (docs/architecture.md, "Claims").
 *
 * On PostgreSQL the lanes read one job past `limit`, and the statement returns how many were due
 * (`due_count`): more than `limit` tells the worker that due jobs were left behind (`moreDue`), so one that
 * took every due job does not claim again only to come back empty (docs/architecture.md, "Claims"). SQLite
 * cannot put an UPDATE in a WITH query; it reads `limit` per lane and leaves the guess to the worker.
 *
 * With allowances per installation (`shared`), the candidates are numbered per installation in claim order
 * and only the first `allowance` of each are taken: `CASE installation_id WHEN ? THEN ? ... ELSE ? END`
 * (the `partial` installations and their allowances, then the claim's limit for the others).
 */
export function claimStatement(
  dialect: Sql['dialect'],
  kindCount: number,
  excludeCount: number,
  shared: { partial: number } | null,
): string {
  const lock = dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const exclude = excludeCount > 0 ? ` AND installation_id NOT IN (${placeholders(excludeCount)})` : '';
  const arms: string[] = [];
  for (const [n, where, by, homed] of CLAIM_LANES)
    for (let k = 0; k < kindCount; k++)
      arms.push(`SELECT id, ${n} AS lane, run_at, installation_id FROM (
       SELECT id, run_at, installation_id FROM jobs WHERE ${where}${homed && dialect === 'postgres' ? HOME_CLAUSE : ''} AND kind = ?${exclude}
       ORDER BY ${by}, id LIMIT ? ${lock}
     ) lane${n}_${k}`);
  const order = 'CASE WHEN lane = 2 THEN 1 ELSE 0 END, run_at, id';
  const due = `(
        ${arms.join('\n        UNION ALL\n        ')}
      ) due`;
  const allowance = shared
    ? `CASE installation_id ${'WHEN ? THEN CAST(? AS INTEGER) '.repeat(shared.partial)}ELSE CAST(? AS INTEGER) END`
    : null;
  const candidates = allowance
    ? `(SELECT id, lane, run_at, ROW_NUMBER() OVER (PARTITION BY installation_id ORDER BY ${order}) AS nth,
          ${allowance} AS allowance
        FROM ${due}) ranked WHERE nth <= allowance`
    : due;
  if (dialect === 'postgres')
    return `WITH candidates AS (
      SELECT id, lane, run_at FROM ${candidates} ORDER BY ${order} LIMIT ?
    ), taken AS (
      UPDATE jobs SET state = 'running', lease_until = ?, lease_token = ?, updated_at = ?, home = ?
      WHERE id IN (SELECT id FROM candidates ORDER BY ${order} LIMIT ?) RETURNING ${CLAIMED}
    ) SELECT taken.*, (SELECT COUNT(*) FROM candidates) AS due_count FROM taken`;
  return `UPDATE jobs SET state = 'running', lease_until = ?, lease_token = ?, updated_at = ?
    WHERE id IN (
      SELECT id FROM ${candidates} ORDER BY ${order} LIMIT ?
    ) RETURNING ${CLAIMED}`;
}

/** What {@link claimValues} needs: the claim's lease, bounds and shares. */
export interface ClaimInput {
  leaseUntil: number;
  token: string;
  now: number;
  dueBy: number;
  /** Each kind once. */
  kinds: readonly JobKind[];
  /** Installations left out (allowance 0). */
  exclude: readonly string[];
  /** `[installationId, allowance, ...]` of the partly allowed installations (empty: no shares). */
  partial: readonly SqlValue[];
  limit: number;
  /** Other homes' first attempts without their grace (`ClaimOptions.help`). */
  help?: boolean;
}

/**
 * The parameters of {@link claimStatement} in the order its text for `dialect` reads them: SQLite takes
 * leaseUntil, token, now, the shares (partial pairs, then limit), then (dueBy, kind, ...exclude, limit) per
 * lane and kind, then limit; PostgreSQL the shares, the lanes (each bound at limit + 1; the first attempts'
 * lane with this process's home and `dueBy - HOME_GRACE_MS` after dueBy), limit + 1, then leaseUntil,
 * token, now, the home and limit.
 *
 * @example
 * const values = claimValues('sqlite', { leaseUntil: 90_000, token: 't', now: 30_000, dueBy: 30_000,
 *   kinds: ['deliver'], exclude: [], partial: [], limit: 32 });
 */
export function claimValues(dialect: Sql['dialect'], input: ClaimInput): SqlValue[] {
  const { leaseUntil, token, now, dueBy, kinds, exclude, partial, limit, help = false } = input;
  const shares = partial.length > 0 ? [...partial, limit] : [];
  const read = dialect === 'postgres' ? limit + 1 : limit;
  const home = homeOf(dialect);
  const lanes = CLAIM_LANES.flatMap(([, , , homed]) =>
    kinds.flatMap((kind) => [
      dueBy,
      ...(homed && home !== null ? [home, help ? dueBy : dueBy - HOME_GRACE_MS] : []),
      kind,
      ...exclude,
      read,
    ]),
  );
  if (dialect === 'postgres') return [...shares, ...lanes, read, leaseUntil, token, now, home, limit];
  return [leaseUntil, token, now, ...shares, ...lanes, limit];
}

/**
 * The claim's lanes: number, condition (the predicate of its partial index, then the bound on the time the
 * index is ordered by), order, and whether a job's home has it first (PostgreSQL). Lane 2 (first attempts)
 * is taken after the others. Retries and expired leases go to whichever host comes first: a retry's time is
 * a promise, and an expired lease's host is gone.
 */
const CLAIM_LANES: readonly (readonly [number, string, string, boolean])[] = [
  [0, "state = 'queued' AND attempt > 0 AND run_at <= ?", 'run_at', false],
  [1, "state = 'running' AND lease_until <= ?", 'lease_until', false],
  [2, "state = 'queued' AND attempt = 0 AND run_at <= ?", 'run_at', true],
];

/** A homed lane's condition on PostgreSQL: no home, this process's, or past the grace. Parameters: home, dueBy - grace. */
const HOME_CLAUSE = ' AND (home IS NULL OR home = ? OR run_at <= ?)';

/**
 * How many first attempts the next-due read looks at on PostgreSQL to find the next of this process's own
 * (or of no home). Other homes' are left out: their homes deliver them, and this process's claims (at the
 * latest its idle check) take them once past the grace. Its own first attempts are announced to it as they
 * are queued; this read is the safety net, so one behind more of other homes' is found at the idle check.
 */
const HOMED_NEXT_DUE_ROWS = 4;

/**
 * The earliest time a job of one kind falls due for this process: the first entry of each partial index
 * of the claim's lanes (queued first attempts and retries by `run_at`, running jobs by `lease_until`),
 * skipping excluded installations; on PostgreSQL other homes' first attempts do not count
 * ({@link HOMED_NEXT_DUE_ROWS}). Parameters: {@link nextDueValues}.
 */
export function nextDueStatement(dialect: Sql['dialect'], excludeCount: number): string {
  const not = excludeCount > 0 ? ` AND installation_id NOT IN (${placeholders(excludeCount)})` : '';
  const first = (column: string, where: string) =>
    `SELECT ${column} AS t FROM (SELECT ${column} FROM jobs WHERE ${where} AND kind = ?${not} ORDER BY ${column} LIMIT 1) first`;
  const firstAttempts =
    dialect === 'postgres'
      ? `SELECT MIN(CASE WHEN home IS NULL OR home = ? THEN run_at END) AS t
         FROM (SELECT run_at, home FROM jobs WHERE state = 'queued' AND attempt = 0 AND kind = ?${not}
               ORDER BY run_at LIMIT ${HOMED_NEXT_DUE_ROWS}) firsts`
      : first('run_at', "state = 'queued' AND attempt = 0");
  return `SELECT MIN(t) AS t FROM (
       ${firstAttempts}
       UNION ALL
       ${first('run_at', "state = 'queued' AND attempt > 0")}
       UNION ALL
       ${first('lease_until', "state = 'running'")}
     ) due`;
}

/**
 * The parameters of {@link nextDueStatement} for one kind: (kind, ...exclude) per lane, led by this
 * process's home on PostgreSQL.
 *
 * @example
 * nextDueValues('sqlite', 'deliver', []); // ['deliver', 'deliver', 'deliver']
 */
export function nextDueValues(
  dialect: Sql['dialect'],
  kind: JobKind,
  exclude: readonly string[],
): SqlValue[] {
  const lane = [kind, ...exclude];
  const home = homeOf(dialect);
  return [...(home === null ? [] : [home]), ...lane, ...lane, ...lane];
}

/**
 * The queue's size now, per kind: waiting (queued), of those already due, held (a slow endpoint's), in
 * flight (running), and the oldest due time (how far behind the workers are). One pass over each partial
 * index of the unfinished jobs (`jobs_first_due`, `jobs_retry_due`, `jobs_held`, `jobs_leases`).
 * Parameters: now four times.
 */
export const QUEUE_STATS = `SELECT kind, SUM(queued) AS queued, SUM(held) AS held, SUM(due) AS due,
    SUM(running) AS running, MIN(oldest_due) AS oldest_due
  FROM (
    SELECT kind, COUNT(*) AS queued, 0 AS held, SUM(CASE WHEN run_at <= ? THEN 1 ELSE 0 END) AS due,
      0 AS running, MIN(CASE WHEN run_at <= ? THEN run_at END) AS oldest_due
    FROM jobs WHERE state = 'queued' AND attempt = 0 GROUP BY kind
    UNION ALL
    SELECT kind, COUNT(*), 0, SUM(CASE WHEN run_at <= ? THEN 1 ELSE 0 END), 0, MIN(CASE WHEN run_at <= ? THEN run_at END)
    FROM jobs WHERE state = 'queued' AND attempt > 0 GROUP BY kind
    UNION ALL
    SELECT kind, 0, COUNT(*), 0, 0, NULL FROM jobs WHERE state = 'held' GROUP BY kind
    UNION ALL
    SELECT kind, 0, 0, 0, COUNT(*), NULL FROM jobs WHERE state = 'running' GROUP BY kind
  ) states GROUP BY kind ORDER BY kind`;

/**
 * Claims an installation's oldest held jobs: the `jobs_held` index range of one installation, cut at the
 * limit; this process becomes their home. Parameters: leaseUntil, token, now, home, installation id, limit.
 */
export function claimHeldStatement(dialect: Sql['dialect']): string {
  const lock = dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  return `UPDATE jobs SET state = 'running', lease_until = ?, lease_token = ?, updated_at = ?, home = ?
    WHERE id IN (
      SELECT id FROM jobs WHERE state = 'held' AND installation_id = ? ORDER BY run_at, id LIMIT ? ${lock}
    ) RETURNING ${CLAIMED}`;
}

/** What a claim returns: the jobs' columns and the routing epoch its statement read (one value for all rows). */
const CLAIMED = `${COLUMNS}, ${ROUTING_EPOCH} AS routing_epoch`;

/**
 * A claim's rows as {@link ClaimedJobs}: in claim order, with the epoch the statement read and whether more
 * than `limit` jobs were due (null: `limit` null, the statement did not count). Neither is enumerable: the
 * result still compares, spreads and serialises as the plain array of jobs.
 */
function toClaimed(rows: readonly Row[], limit: number | null = null): ClaimedJobs {
  const jobs = rows.map(toJob).sort(claimOrder);
  const routingEpoch = rows.length > 0 ? epochOf(rows[0], 'routing_epoch') : null;
  const first = rows[0];
  const moreDue = limit === null ? null : first !== undefined && num(first, 'due_count') > limit;
  return Object.defineProperties(jobs, {
    routingEpoch: { value: routingEpoch, enumerable: false },
    moreDue: { value: moreDue, enumerable: false },
  }) as ClaimedJobs;
}

/** Order of claimed jobs (RETURNING has none): retries first, then oldest runAt. */
export function claimOrder(a: JobRecord, b: JobRecord): number {
  return (
    Number(b.attempt > 0) - Number(a.attempt > 0) ||
    a.runAt - b.runAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function checkOutcome(outcome: FinishOutcome): void {
  if ('state' in outcome && !TERMINAL.includes(outcome.state))
    throw new StorageError('invalid', `finishAttempt state must be one of ${TERMINAL.join(', ')}`);
}

/** Cancels the queued and running jobs of an installation; returns how many. */
export async function cancelJobsForInstallation(
  sql: Sql,
  installationId: string,
  now: number,
): Promise<number> {
  const { changes } = await sql.run(
    `UPDATE jobs SET state = 'cancelled', lease_until = NULL, lease_token = NULL, finished_at = ?, updated_at = ?
     WHERE installation_id = ? AND state IN ('queued', 'held', 'running')`,
    [now, now, installationId],
  );
  return changes;
}

/**
 * Builds the durable queue's repository on an adapter (or transaction handle).
 *
 * @example
 * const queue = queueRepo(sql);
 * const [job] = await queue.claim({ kinds: ['deliver'], limit: 1, leaseMs: 60_000, now: Date.now() });
 */
export function queueRepo(sql: Sql): QueueRepo {
  return {
    async enqueue(inputs: readonly EnqueueInput[], now = Date.now()) {
      const jobs = toJobRecords(inputs, now);
      await insertJobRecords(sql, jobs);
      await signalEnqueued(sql, jobs);
      return jobs;
    },

    async claim({ kinds, limit, leaseMs, now, dueBy = now, perInstallation, help = false }) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StorageError('invalid', 'claim limit must be an integer >= 1');
      if (!(leaseMs > 0)) throw new StorageError('invalid', 'claim leaseMs must be > 0');
      if (!(dueBy >= now)) throw new StorageError('invalid', 'claim dueBy must not be before now');
      // Installations with nothing left are left out; the others listed get at most their allowance.
      const exclude: string[] = [];
      const partial: SqlValue[] = [];
      for (const [installationId, allowance] of perInstallation ?? []) {
        if (!(Number.isInteger(allowance) && allowance >= 0))
          throw new StorageError('invalid', 'claim perInstallation allowances must be integers >= 0');
        if (allowance === 0) exclude.push(installationId);
        else if (allowance < limit) partial.push(installationId, allowance);
      }
      checkKinds(kinds);
      const once = [...new Set(kinds)];
      const statement = claimStatement(
        sql.dialect,
        once.length,
        exclude.length,
        partial.length > 0 ? { partial: partial.length / 2 } : null,
      );
      // One statement, atomic by itself: no explicit transaction (on PostgreSQL a BEGIN and a COMMIT would
      // be two more round trips per claim).
      const rows = await sql.all(
        statement,
        claimValues(sql.dialect, {
          leaseUntil: now + leaseMs,
          token: newLeaseToken(),
          now,
          dueBy,
          kinds: once,
          exclude,
          partial,
          limit,
          help,
        }),
      );
      return toClaimed(rows, sql.dialect === 'postgres' ? limit : null);
    },

    finishAttempt: async (ref: JobRef, attempt: AttemptInput, outcome: FinishOutcome, now: number) => {
      checkOutcome(outcome);
      const [finished] = await sql.transaction((tx) => finishAll(tx, [{ job: ref, attempt, outcome }], now));
      return finished ?? false;
    },

    finishAttempts: async (items: readonly FinishItem[], now: number) => {
      for (const item of items) checkOutcome(item.outcome);
      return finishGroup(sql, items, now);
    },

    async complete(ref: JobRef, state: TerminalJobState, now: number, lastError?: string | null) {
      if (!TERMINAL.includes(state))
        throw new StorageError('invalid', `complete state must be one of ${TERMINAL.join(', ')}`);
      const guard = refGuard(ref);
      const { changes } = await sql.run(
        `UPDATE jobs SET state = ?, finished_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL,
           last_error = COALESCE(?, last_error)
         WHERE ${guard.sql} AND state = 'running'`,
        [state, now, now, lastError ?? null, ...guard.values],
      );
      return changes > 0;
    },

    async prune(before: number, limit: number) {
      // A range of jobs_finished (run_at of the finished jobs), in no particular order (every row found is
      // past `before`; sorting them all first would cost more than the batch). Attempts follow their job
      // (ON DELETE CASCADE).
      const { changes } = await sql.run(
        `DELETE FROM jobs WHERE id IN (
           SELECT id FROM jobs WHERE state IN ('succeeded', 'failed', 'exhausted', 'cancelled') AND run_at < ?
           LIMIT ?)`,
        [before, pruneLimit(limit)],
      );
      return changes;
    },

    async queueStats(now: number) {
      const rows = await sql.all(QUEUE_STATS, [now, now, now, now]);
      return rows.map((row) => ({
        kind: str(row, 'kind') as JobKind,
        queued: num(row, 'queued'),
        held: num(row, 'held'),
        due: num(row, 'due'),
        running: num(row, 'running'),
        oldestDueAt: numOrNull(row, 'oldest_due'),
      }));
    },

    async claimHeld({ installationId, limit, leaseMs, now }) {
      if (limit <= 0) return toClaimed([]);
      const rows = await sql.all(claimHeldStatement(sql.dialect), [
        now + leaseMs,
        newLeaseToken(),
        now,
        homeOf(sql.dialect),
        installationId,
        limit,
      ]);
      return toClaimed(rows);
    },

    async unhold(which, now) {
      if ('installationId' in which) {
        const { changes } = await sql.run(
          `UPDATE jobs SET state = 'queued', updated_at = ?, home = ? WHERE state = 'held' AND installation_id = ?`,
          [now, homeOf(sql.dialect), which.installationId],
        );
        // Due now and this process's: no signal (the caller wakes its own worker).
        return changes;
      }
      const not =
        which.except.length > 0 ? ` AND installation_id NOT IN (${placeholders(which.except.length)})` : '';
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'queued', updated_at = ?, home = ? WHERE state = 'held'${not}`,
        [now, homeOf(sql.dialect), ...which.except],
      );
      return changes;
    },

    async nextDueAt(kinds: readonly JobKind[], exclude: readonly string[] = []) {
      checkKinds(kinds);
      // One probe of each index per kind: a MIN over `kind IN (...)` would read the whole ranges.
      const statement = nextDueStatement(sql.dialect, exclude.length);
      let earliest: number | null = null;
      for (const kind of new Set(kinds)) {
        const row = await sql.get(statement, nextDueValues(sql.dialect, kind, exclude));
        const t = row ? numOrNull(row, 't') : null;
        if (t !== null && (earliest === null || t < earliest)) earliest = t;
      }
      return earliest;
    },

    async release(refs: readonly { id: string; leaseToken: string | null }[], now: number) {
      // One UPDATE per claim (a claim's jobs share its lease token); usually one.
      const byToken = new Map<string, string[]>();
      for (const { id, leaseToken } of refs) {
        if (leaseToken === null) continue; // not under a claim: nothing of ours to give back
        const ids = byToken.get(leaseToken);
        if (ids) ids.push(id);
        else byToken.set(leaseToken, [id]);
      }
      const released: { kind: JobKind; runAt: number }[] = [];
      for (const [token, ids] of byToken) {
        const rows = await sql.all(
          `UPDATE jobs SET state = 'queued', lease_until = NULL, lease_token = NULL, updated_at = ?
           WHERE id IN (${placeholders(ids.length)}) AND state = 'running' AND lease_token = ?
           RETURNING kind, run_at`,
          [now, ...ids, token],
        );
        for (const row of rows)
          released.push({ kind: str(row, 'kind') as JobKind, runAt: num(row, 'run_at') });
      }
      // Given back: due now, any host with room may take them at once (those due later at their time).
      await signalDue(sql, released, now);
      for (const kind of new Set(released.filter((job) => job.runAt <= now).map((job) => job.kind)))
        await signalHelp(sql, kind, now);
      return released.length;
    },

    async defer(refs: readonly { id: string; leaseToken: string | null; runAt: number }[], now: number) {
      // One UPDATE per job (each has a time of its own); a job no longer under its claim is left alone.
      const deferred: { kind: JobKind; runAt: number; retry: boolean }[] = [];
      for (const { id, leaseToken, runAt } of refs) {
        if (leaseToken === null) continue;
        const row = await sql.get(
          `UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, lease_token = NULL, updated_at = ?
           WHERE id = ? AND state = 'running' AND lease_token = ?
           RETURNING kind, attempt`,
          [runAt, now, id, leaseToken],
        );
        if (row) deferred.push({ kind: str(row, 'kind') as JobKind, runAt, retry: num(row, 'attempt') > 0 });
      }
      // Deferred first attempts stay this process's (it arms its own timer): other hosts would only find
      // them inside their home's grace. Deferred retries are anyone's at their time.
      await signalDue(
        sql,
        deferred.filter((job) => job.retry),
        now,
      );
      return deferred.length;
    },

    askForHelp: (kind: JobKind) => signalHelp(sql, kind),

    cancelForInstallation: (installationId: string, now = Date.now()) =>
      cancelJobsForInstallation(sql, installationId, now),
  };
}
