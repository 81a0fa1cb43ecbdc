// The row shape of the `jobs` and `job_attempts` tables, shared by the queue (queue.ts) and the
// delivery log (deliveries.ts).
import { json, num, numOrNull, str, strOrNull } from '../rows.js';
import { placeholders, type Row, type Sql } from '../sql.js';
import type {
  JobAttempt,
  JobKind,
  JobRecord,
  JobState,
  JobWithAttempts,
  TerminalJobState,
} from '../types.js';

/** The columns of a job row: the SELECT and RETURNING lists, and the enqueue INSERT's column list. */
export const COLUMNS =
  'id, kind, installation_id, event_id, payload, state, series, attempt, run_at, lease_until, lease_token, last_error, created_at, updated_at, finished_at';

/** The states a job ends in (and that a redelivery starts again from). */
export const TERMINAL: readonly TerminalJobState[] = ['succeeded', 'failed', 'exhausted'];

/** A `jobs` row as a record. */
export function toJob(row: Row): JobRecord {
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

/** A `job_attempts` row as an attempt. */
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

/** The jobs with their attempts (one query for all of them), in the order given. */
export async function withAttempts(sql: Sql, jobs: JobRecord[]): Promise<JobWithAttempts[]> {
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
