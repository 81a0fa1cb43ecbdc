// The row shape of the `jobs` and `job_attempts` tables, shared by the queue (queue.ts) and the
// delivery log (deliveries.ts).
import { type ColumnReader, json, num, numOrNull, rowMapper, str, strOrNull } from '../rows.js';
import { placeholders, type Sql } from '../sql.js';
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
export const toJob = rowMapper<JobRecord>({
  id: str,
  kind: str as ColumnReader<JobKind>,
  installationId: str,
  eventId: strOrNull,
  payload: json,
  state: str as ColumnReader<JobState>,
  series: num,
  attempt: num,
  runAt: num,
  leaseUntil: numOrNull,
  leaseToken: strOrNull,
  lastError: strOrNull,
  createdAt: num,
  updatedAt: num,
  finishedAt: numOrNull,
});

/** A `job_attempts` row as an attempt. */
const toAttempt = rowMapper<JobAttempt>({
  series: num,
  number: num,
  startedAt: num,
  durationMs: num,
  statusCode: numOrNull,
  error: strOrNull,
  responseExcerpt: strOrNull,
});

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
