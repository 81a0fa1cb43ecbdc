// All SQL of the durable queue lives in this file.
import { StorageError } from '../errors.js';
import { newLeaseToken, newSortableId } from '../ids.js';
import { json, num, numOrNull, pruneLimit, str, strOrNull } from '../rows.js';
import { placeholders, type Row, type Sql, type SqlValue } from '../sql.js';
import type {
  JobAttempt,
  JobKind,
  JobRecord,
  JobState,
  JobWithAttempts,
  TerminalJobState,
} from '../types.js';
import type {
  AttemptInput,
  DeliveryListOptions,
  EnqueueInput,
  FinishItem,
  FinishOutcome,
  JobRef,
  JobsRepo,
  RedeliverRangeOptions,
} from './jobs-api.js';
import { COLUMNS, claimHeldStatement, claimOrder, claimStatement, QUEUE_STATS } from './jobs-sql.js';

const TERMINAL: readonly TerminalJobState[] = ['succeeded', 'failed', 'exhausted'];
const EXCERPT_BYTES = 4096;
/** Rows per multi-row INSERT of `enqueue` (11 bound values each). */
const ENQUEUE_CHUNK = 100;
const ENQUEUE_ROW = '(?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, NULL, ?, ?, NULL)';

function toJob(row: Row): JobRecord {
  return {
    id: str(row, 'id'),
    kind: str(row, 'kind') as JobKind,
    installationId: str(row, 'installation_id'),
    eventId: strOrNull(row, 'event_id'),
    payload: json(row, 'payload'),
    state: str(row, 'state') as JobState,
    series: num(row, 'series'),
    attempt: num(row, 'attempt'),
    runAt: num(row, 'run_at'),
    leaseUntil: numOrNull(row, 'lease_until'),
    leaseToken: strOrNull(row, 'lease_token'),
    lastError: strOrNull(row, 'last_error'),
    createdAt: num(row, 'created_at'),
    updatedAt: num(row, 'updated_at'),
    finishedAt: numOrNull(row, 'finished_at'),
  };
}

function toAttempt(row: Row): JobAttempt {
  return {
    series: num(row, 'series'),
    number: num(row, 'number'),
    startedAt: num(row, 'started_at'),
    durationMs: num(row, 'duration_ms'),
    statusCode: numOrNull(row, 'status_code'),
    error: strOrNull(row, 'error'),
    responseExcerpt: strOrNull(row, 'response_excerpt'),
  };
}

/** The first `maxBytes` bytes of `text` in UTF-8, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

function refGuard(ref: JobRef): { sql: string; values: SqlValue[] } {
  if (typeof ref === 'string') return { sql: 'id = ?', values: [ref] };
  return ref.leaseToken
    ? { sql: 'id = ? AND lease_token = ?', values: [ref.id, ref.leaseToken] }
    : { sql: 'id = ?', values: [ref.id] };
}

function kindList(kinds: readonly JobKind[]): string {
  if (kinds.length === 0) throw new StorageError('invalid', 'kinds must list at least one job kind');
  return placeholders(kinds.length);
}

function encodeCursor(job: JobRecord): string {
  return Buffer.from(JSON.stringify([job.createdAt, job.id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {
    // fall through
  }
  throw new StorageError('invalid', 'invalid cursor: pass the nextCursor value of a previous page unchanged');
}

async function withAttempts(sql: Sql, jobs: JobRecord[]): Promise<JobWithAttempts[]> {
  if (jobs.length === 0) return [];
  const rows = await sql.all(
    `SELECT job_id, series, number, started_at, duration_ms, status_code, error, response_excerpt
     FROM job_attempts WHERE job_id IN (${placeholders(jobs.length)}) ORDER BY series, number`,
    jobs.map((job) => job.id),
  );
  const byJob = new Map<string, JobAttempt[]>(jobs.map((job) => [job.id, []]));
  for (const row of rows) byJob.get(str(row, 'job_id'))?.push(toAttempt(row));
  return jobs.map((job) => ({ ...job, attempts: byJob.get(job.id) ?? [] }));
}

function checkOutcome(outcome: FinishOutcome): void {
  if ('state' in outcome && !TERMINAL.includes(outcome.state))
    throw new StorageError('invalid', `finishAttempt state must be one of ${TERMINAL.join(', ')}`);
}

/**
 * Inside a transaction: the attempt, then the job's end under the lease guard. The attempt counter
 * moves with the state change (same guard); only when the claim was lost does it need its own UPDATE,
 * exactly as recordAttempt would have done.
 */
async function finishOne(tx: Sql, { job: ref, attempt, outcome }: FinishItem, now: number): Promise<boolean> {
  const jobId = typeof ref === 'string' ? ref : ref.id;
  const guard = refGuard(ref);
  const advance = 'attempt = CASE WHEN series = ? AND attempt < ? THEN ? ELSE attempt END';
  const advanceValues = [attempt.series, attempt.number, attempt.number];
  await insertAttempt(tx, jobId, attempt);
  const { changes } =
    'state' in outcome
      ? await tx.run(
          `UPDATE jobs SET state = ?, finished_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL,
             last_error = COALESCE(?, last_error), ${advance}
           WHERE ${guard.sql} AND state = 'running'`,
          [outcome.state, now, now, outcome.lastError ?? null, ...advanceValues, ...guard.values],
        )
      : await tx.run(
          `UPDATE jobs SET state = 'queued', run_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL,
             last_error = ?, ${advance}
           WHERE ${guard.sql} AND state = 'running'`,
          [outcome.runAt, now, outcome.lastError, ...advanceValues, ...guard.values],
        );
  if (changes === 0) await advanceAttempt(tx, jobId, attempt);
  return changes > 0;
}

async function insertAttempt(sql: Sql, jobId: string, attempt: AttemptInput): Promise<void> {
  const excerpt = attempt.responseExcerpt == null ? null : utf8Prefix(attempt.responseExcerpt, EXCERPT_BYTES);
  await sql.run(
    `INSERT INTO job_attempts (job_id, series, number, started_at, duration_ms, status_code, error, response_excerpt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_id, series, number) DO UPDATE SET started_at = excluded.started_at,
       duration_ms = excluded.duration_ms, status_code = excluded.status_code, error = excluded.error,
       response_excerpt = excluded.response_excerpt`,
    [
      jobId,
      attempt.series,
      attempt.number,
      attempt.startedAt,
      attempt.durationMs,
      attempt.statusCode ?? null,
      attempt.error ?? null,
      excerpt,
    ],
  );
}

/** Advances `job.attempt` to the attempt's number (never backwards; ignored for another series). */
async function advanceAttempt(sql: Sql, jobId: string, attempt: AttemptInput): Promise<void> {
  await sql.run('UPDATE jobs SET attempt = ? WHERE id = ? AND series = ? AND attempt < ?', [
    attempt.number,
    jobId,
    attempt.series,
    attempt.number,
  ]);
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

/** Builds the jobs (durable queue) repository on an adapter (or transaction handle). */
export function jobsRepo(sql: Sql): JobsRepo {
  const getJob = async (id: string): Promise<JobWithAttempts | null> => {
    const row = await sql.get(`SELECT ${COLUMNS} FROM jobs WHERE id = ?`, [id]);
    if (!row) return null;
    const [job] = await withAttempts(sql, [toJob(row)]);
    return job ?? null;
  };

  return {
    async enqueue(inputs: readonly EnqueueInput[], now = Date.now()) {
      const jobs = inputs.map(
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
      const chunks: JobRecord[][] = [];
      for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) chunks.push(jobs.slice(i, i + ENQUEUE_CHUNK));
      const insert = async (db: Sql) => {
        for (const chunk of chunks) {
          await db.run(
            `INSERT INTO jobs (${COLUMNS}) VALUES ${chunk.map(() => ENQUEUE_ROW).join(', ')}`,
            chunk.flatMap((job) => [
              job.id,
              job.kind,
              job.installationId,
              job.eventId,
              JSON.stringify(job.payload),
              job.state,
              job.runAt,
              job.leaseUntil,
              job.leaseToken,
              now,
              now,
            ]),
          );
        }
      };
      // One multi-row INSERT is atomic by itself (no transaction or savepoint needed).
      if (chunks.length === 1) await insert(sql);
      else if (chunks.length > 1) await sql.transaction(insert);
      return jobs;
    },

    async claim({ kinds, limit, leaseMs, now, perInstallation }) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StorageError('invalid', 'claim limit must be an integer >= 1');
      if (!(leaseMs > 0)) throw new StorageError('invalid', 'claim leaseMs must be > 0');
      // Installations with nothing left are left out; the others listed get at most their allowance.
      const exclude: string[] = [];
      const partial: SqlValue[] = [];
      for (const [installationId, allowance] of perInstallation ?? []) {
        if (!(Number.isInteger(allowance) && allowance >= 0))
          throw new StorageError('invalid', 'claim perInstallation allowances must be integers >= 0');
        if (allowance === 0) exclude.push(installationId);
        else if (allowance < limit) partial.push(installationId, allowance);
      }
      const token = newLeaseToken();
      const lane = [now, ...kinds, ...exclude, limit];
      const shares = partial.length > 0 ? [...partial, limit] : [];
      const statement = claimStatement(
        sql.dialect,
        kinds.length,
        exclude.length,
        partial.length > 0 ? { partial: partial.length / 2 } : null,
      );
      const rows = await sql.transaction((tx) =>
        tx.all(statement, [now + leaseMs, token, now, ...shares, ...lane, ...lane, ...lane, limit]),
      );
      return rows.map(toJob).sort(claimOrder);
    },

    recordAttempt: (jobId: string, attempt: AttemptInput) =>
      sql.transaction(async (tx) => {
        await insertAttempt(tx, jobId, attempt);
        await advanceAttempt(tx, jobId, attempt);
      }),

    finishAttempt: async (ref: JobRef, attempt: AttemptInput, outcome: FinishOutcome, now: number) => {
      checkOutcome(outcome);
      return sql.transaction((tx) => finishOne(tx, { job: ref, attempt, outcome }, now));
    },

    finishAttempts: async (items: readonly FinishItem[], now: number) => {
      for (const item of items) checkOutcome(item.outcome);
      return sql.transaction(async (tx) => {
        const results: boolean[] = [];
        for (const item of items) results.push(await finishOne(tx, item, now));
        return results;
      });
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

    async reschedule(ref: JobRef, runAt: number, now: number, lastError: string | null) {
      const guard = refGuard(ref);
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'queued', run_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL, last_error = ?
         WHERE ${guard.sql} AND state = 'running'`,
        [runAt, now, lastError, ...guard.values],
      );
      return changes > 0;
    },

    async prune(before: number, limit: number) {
      // A range of jobs_due (state, run_at) per final state, in no particular order (every row found is
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
      const rows = await sql.all(QUEUE_STATS, [now, now]);
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
      if (limit <= 0) return [];
      const rows = await sql.all(claimHeldStatement(sql.dialect), [
        now + leaseMs,
        newLeaseToken(),
        now,
        installationId,
        limit,
      ]);
      return rows.map(toJob).sort(claimOrder);
    },

    async unhold(which, now) {
      if ('installationId' in which) {
        const { changes } = await sql.run(
          `UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'held' AND installation_id = ?`,
          [now, which.installationId],
        );
        return changes;
      }
      const not =
        which.except.length > 0 ? ` AND installation_id NOT IN (${placeholders(which.except.length)})` : '';
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'held'${not}`,
        [now, ...which.except],
      );
      return changes;
    },

    async nextDueAt(kinds: readonly JobKind[], exclude: readonly string[] = []) {
      const list = kindList(kinds);
      const not = exclude.length > 0 ? ` AND installation_id NOT IN (${placeholders(exclude.length)})` : '';
      const row = await sql.get(
        `SELECT MIN(t) AS t FROM (
           SELECT MIN(run_at) AS t FROM jobs WHERE state = 'queued' AND kind IN (${list})${not}
           UNION ALL
           SELECT MIN(lease_until) AS t FROM jobs WHERE state = 'running' AND kind IN (${list})${not}
         ) due`,
        [...kinds, ...exclude, ...kinds, ...exclude],
      );
      return row ? numOrNull(row, 't') : null;
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
      let released = 0;
      for (const [token, ids] of byToken) {
        const { changes } = await sql.run(
          `UPDATE jobs SET state = 'queued', lease_until = NULL, lease_token = NULL, updated_at = ?
           WHERE id IN (${placeholders(ids.length)}) AND state = 'running' AND lease_token = ?`,
          [now, ...ids, token],
        );
        released += changes;
      }
      return released;
    },

    async listDeliveries(installationId: string, options: DeliveryListOptions = {}) {
      const limit = Math.min(Math.max(Math.floor(options.limit ?? 50), 1), 500);
      const where = ['installation_id = ?', 'kind = ?'];
      const values: SqlValue[] = [installationId, options.kind ?? 'deliver'];
      if (options.state === 'queued') {
        where.push("state IN ('queued', 'held')"); // held: queued, waiting for a slow endpoint's share
      } else if (options.state) {
        where.push('state = ?');
        values.push(options.state);
      }
      if (options.since !== undefined) {
        where.push('created_at >= ?');
        values.push(options.since);
      }
      if (options.until !== undefined) {
        where.push('created_at < ?');
        values.push(options.until);
      }
      if (options.cursor) {
        const [createdAt, id] = decodeCursor(options.cursor);
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        values.push(createdAt, createdAt, id);
      }
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM jobs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`,
        [...values, limit + 1],
      );
      const jobs = rows.slice(0, limit).map(toJob);
      const last = jobs[jobs.length - 1];
      return {
        items: await withAttempts(sql, jobs),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
      };
    },

    getJob,

    async redeliver(jobId: string, now: number) {
      const row = await sql.get(
        `UPDATE jobs SET state = 'queued', series = series + 1, attempt = 0, run_at = ?, lease_until = NULL,
           lease_token = NULL, last_error = NULL, finished_at = NULL, updated_at = ?
         WHERE id = ? AND state IN (${placeholders(TERMINAL.length)}) RETURNING ${COLUMNS}`,
        [now, now, jobId, ...TERMINAL],
      );
      if (row) return toJob(row);
      const existing = await sql.get('SELECT state FROM jobs WHERE id = ?', [jobId]);
      if (!existing) throw new StorageError('not_found', `job ${jobId} does not exist`);
      throw new StorageError(
        'conflict',
        `job ${jobId} is ${str(existing, 'state')}: only succeeded, failed or exhausted jobs can be redelivered`,
      );
    },

    async redeliverRange(installationId: string, options: RedeliverRangeOptions, now: number) {
      const states = options.states ?? ['failed', 'exhausted'];
      for (const state of states) {
        if (!TERMINAL.includes(state))
          throw new StorageError('invalid', `redeliverRange states must be among ${TERMINAL.join(', ')}`);
      }
      if (states.length === 0) return 0;
      const where = ['installation_id = ?', 'kind = ?', `state IN (${placeholders(states.length)})`];
      const values: SqlValue[] = [installationId, options.kind ?? 'deliver', ...states];
      if (options.since !== undefined) {
        where.push('created_at >= ?');
        values.push(options.since);
      }
      if (options.until !== undefined) {
        where.push('created_at < ?');
        values.push(options.until);
      }
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'queued', series = series + 1, attempt = 0, run_at = ?, lease_until = NULL,
           lease_token = NULL, last_error = NULL, finished_at = NULL, updated_at = ?
         WHERE ${where.join(' AND ')}`,
        [now, now, ...values],
      );
      return changes;
    },

    cancelForInstallation: (installationId: string, now = Date.now()) =>
      cancelJobsForInstallation(sql, installationId, now),
  };
}
