import { signalDue } from '../queue-signals.js';
import { str } from '../rows.js';
import type { Sql, SqlValue } from '../sql.js';
import type { JobKind } from '../types.js';
import type { AttemptInput, FinishItem, JobRef } from './jobs-api.js';

/**
 * Finishing attempts (the queue's hot write path, docs/architecture.md): each attempt recorded and its
 * job ended (final state, or back in the queue for a retry) under the claim's lease guard, for a group
 * of attempts with two statements in one transaction (a multi-row upsert of the attempts, one UPDATE …
 * FROM a VALUES list for the jobs) whatever the group's size, or, on PostgreSQL, one statement.
 */

const EXCERPT_BYTES = 4096;

/** The first `maxBytes` bytes of `text` in UTF-8, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

/** The WHERE part of a job reference: by id, or by id under one claim (its lease token). */
export function refGuard(ref: JobRef): { sql: string; values: SqlValue[] } {
  if (typeof ref === 'string') return { sql: 'id = ?', values: [ref] };
  return ref.leaseToken
    ? { sql: 'id = ? AND lease_token = ?', values: [ref.id, ref.leaseToken] }
    : { sql: 'id = ?', values: [ref.id] };
}

/**
 * Inside a transaction: the attempt, then the job's end under the lease guard. The attempt counter
 * moves with the state change (same guard); only when the claim was lost does it need its own UPDATE,
 * exactly as a bare attempt record does.
 */
async function finishOne(
  tx: Sql,
  { job: ref, attempt, outcome }: FinishItem,
  now: number,
): Promise<{ finished: boolean; retry?: { kind: JobKind; runAt: number } }> {
  const jobId = typeof ref === 'string' ? ref : ref.id;
  const guard = refGuard(ref);
  const advance = 'attempt = CASE WHEN series = ? AND attempt < ? THEN ? ELSE attempt END';
  const advanceValues = [attempt.series, attempt.number, attempt.number];
  await insertAttempts(tx, [{ job: ref, attempt, outcome }]);
  if ('state' in outcome) {
    const { changes } = await tx.run(
      `UPDATE jobs SET state = ?, finished_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL,
         last_error = COALESCE(?, last_error), ${advance}
       WHERE ${guard.sql} AND state = 'running'`,
      [outcome.state, now, now, outcome.lastError ?? null, ...advanceValues, ...guard.values],
    );
    if (changes === 0) await advanceAttempt(tx, jobId, attempt);
    return { finished: changes > 0 };
  }
  const row = await tx.get(
    `UPDATE jobs SET state = 'queued', run_at = ?, updated_at = ?, lease_until = NULL, lease_token = NULL,
       last_error = ?, ${advance}
     WHERE ${guard.sql} AND state = 'running' RETURNING kind`,
    [outcome.runAt, now, outcome.lastError, ...advanceValues, ...guard.values],
  );
  if (!row) {
    await advanceAttempt(tx, jobId, attempt);
    return { finished: false };
  }
  return { finished: true, retry: { kind: str(row, 'kind') as JobKind, runAt: outcome.runAt } };
}

/**
 * Finishes a group of attempts inside the caller's transaction; one result each (false: the claim was
 * lost, the attempt is recorded all the same). Signals the retries it scheduled. Two statements for the
 * whole group; a group naming one job twice (never seen in practice) goes item by item, in order.
 */
export async function finishAll(tx: Sql, items: readonly FinishItem[], now: number): Promise<boolean[]> {
  if (items.length === 0) return [];
  const ids = items.map((item) => jobIdOf(item.job));
  if (new Set(ids).size !== ids.length) {
    const results: boolean[] = [];
    const retries: { kind: JobKind; runAt: number }[] = [];
    for (const item of items) {
      const { finished, retry } = await finishOne(tx, item, now);
      results.push(finished);
      if (retry) retries.push(retry);
    }
    await signalDue(tx, retries);
    return results;
  }
  await insertAttempts(tx, items);
  return afterEnd(tx, items, await endJobs(tx, items, now, null));
}

/**
 * Finishes a group of attempts (`jobs.finishAttempts`). On PostgreSQL, when the group names each job once:
 * ONE statement outside any transaction, atomic by itself (the attempts' upsert as a data-modifying
 * `WITH`, then the jobs' UPDATE); a transaction's BEGIN and COMMIT would be two more round trips per
 * group. Then the attempt counters of claims lost meanwhile (rare; each its own statement, as a bare
 * attempt record is) and the retries' signal. Otherwise (SQLite, whose statements cost no round trip, or
 * a job named twice): {@link finishAll} in one transaction.
 */
export async function finishGroup(sql: Sql, items: readonly FinishItem[], now: number): Promise<boolean[]> {
  const ids = items.map((item) => jobIdOf(item.job));
  if (items.length === 0 || sql.dialect !== 'postgres' || new Set(ids).size !== ids.length)
    return sql.transaction((tx) => finishAll(tx, items, now));
  return afterEnd(sql, items, await endJobs(sql, items, now, attemptsUpsert(items)));
}

/** What follows the jobs' UPDATE: the counters of lost claims, the retries' signal, one result per item. */
async function afterEnd(
  sql: Sql,
  items: readonly FinishItem[],
  ended: Map<string, JobKind>,
): Promise<boolean[]> {
  const ids = items.map((item) => jobIdOf(item.job));
  const results = ids.map((id) => ended.has(id));
  // A lost claim: its attempt counts all the same (never backwards, never for another series).
  for (const [index, item] of items.entries()) {
    if (!results[index]) await advanceAttempt(sql, ids[index] ?? '', item.attempt);
  }
  const retries = items.flatMap((item, index) => {
    const kind = ended.get(ids[index] ?? '');
    return kind && 'runAt' in item.outcome ? [{ kind, runAt: item.outcome.runAt }] : [];
  });
  await signalDue(sql, retries);
  return results;
}

const jobIdOf = (ref: JobRef): string => (typeof ref === 'string' ? ref : ref.id);

/** The attempts of a group: one multi-row upsert (a repeated attempt replaces the stored one). */
function attemptsUpsert(items: readonly FinishItem[]): { sql: string; values: SqlValue[] } {
  return {
    sql: `INSERT INTO job_attempts (job_id, series, number, started_at, duration_ms, status_code, error, response_excerpt)
     VALUES ${items.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     ON CONFLICT (job_id, series, number) DO UPDATE SET started_at = excluded.started_at,
       duration_ms = excluded.duration_ms, status_code = excluded.status_code, error = excluded.error,
       response_excerpt = excluded.response_excerpt`,
    values: items.flatMap(({ job, attempt }) => attemptValues(jobIdOf(job), attempt)),
  };
}

async function insertAttempts(tx: Sql, items: readonly FinishItem[]): Promise<void> {
  const { sql, values } = attemptsUpsert(items);
  await tx.run(sql, values);
}

function attemptValues(jobId: string, attempt: AttemptInput): SqlValue[] {
  const excerpt = attempt.responseExcerpt == null ? null : utf8Prefix(attempt.responseExcerpt, EXCERPT_BYTES);
  return [
    jobId,
    attempt.series,
    attempt.number,
    attempt.startedAt,
    attempt.durationMs,
    attempt.statusCode ?? null,
    attempt.error ?? null,
    excerpt,
  ];
}

/**
 * The jobs of a group ended in one UPDATE … FROM a VALUES list, each under its own guard (still running,
 * and under its claim when a lease token is given): a final state with `finished_at`, or back in the
 * queue at its retry time; the attempt counter moves with it. With `attempts` (PostgreSQL), the attempts'
 * upsert runs in the same statement, as a data-modifying WITH. Returns the kind of each job it ended.
 */
async function endJobs(
  tx: Sql,
  items: readonly FinishItem[],
  now: number,
  attempts: { sql: string; values: SqlValue[] } | null,
): Promise<Map<string, JobKind>> {
  const row =
    '(CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT))';
  const rows = await tx.all(
    `WITH ${attempts ? `recorded AS (${attempts.sql}), ` : ''}v (id, token, state, run_at, last_error, series, number) AS (VALUES ${items.map(() => row).join(', ')})
     UPDATE jobs SET
       state = v.state,
       run_at = CASE WHEN v.state = 'queued' THEN v.run_at ELSE jobs.run_at END,
       finished_at = CASE WHEN v.state = 'queued' THEN jobs.finished_at ELSE ? END,
       updated_at = ?, lease_until = NULL, lease_token = NULL,
       last_error = CASE WHEN v.state = 'queued' THEN v.last_error ELSE COALESCE(v.last_error, jobs.last_error) END,
       attempt = CASE WHEN jobs.series = v.series AND jobs.attempt < v.number THEN v.number ELSE jobs.attempt END
     FROM v
     WHERE jobs.id = v.id AND jobs.state = 'running' AND (v.token IS NULL OR jobs.lease_token = v.token)
     RETURNING jobs.id, jobs.kind`,
    [
      ...(attempts?.values ?? []),
      ...items.flatMap(({ job, attempt, outcome }) => [
        jobIdOf(job),
        typeof job === 'string' ? null : job.leaseToken,
        'state' in outcome ? outcome.state : 'queued',
        'runAt' in outcome ? outcome.runAt : null,
        outcome.lastError ?? null,
        attempt.series,
        attempt.number,
      ]),
      now,
      now,
    ],
  );
  return new Map(rows.map((r) => [str(r, 'id'), str(r, 'kind') as JobKind]));
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
