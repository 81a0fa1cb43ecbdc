import { placeholders, type Sql } from '../sql.js';
import type { JobRecord } from '../types.js';

/** The columns of a job row: the SELECT and RETURNING lists, and the enqueue INSERT's column list. */
export const COLUMNS =
  'id, kind, installation_id, event_id, payload, state, series, attempt, run_at, lease_until, lease_token, last_error, created_at, updated_at, finished_at';

/**
 * The claim: one UPDATE over three lanes, each an index range scan cut at `limit` — due retries
 * (`attempt > 0`, partial index `jobs_retry_queued`) and expired leases (a crashed worker's jobs) first, then
 * first attempts; oldest runAt first within a lane. Parameters: leaseUntil, token, now, the shares (below),
 * then (now, ...kinds, ...excluded installation ids, limit) per lane, then limit.
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
  const kinds = placeholders(kindCount);
  const lock = dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const exclude = excludeCount > 0 ? ` AND installation_id NOT IN (${placeholders(excludeCount)})` : '';
  const lane = (n: number, where: string) =>
    `SELECT id, ${n} AS lane, run_at, installation_id FROM (
       SELECT id, run_at, installation_id FROM jobs WHERE ${where} AND kind IN (${kinds})${exclude}
       ORDER BY run_at, id LIMIT ? ${lock}
     ) lane${n}`;
  const order = 'CASE WHEN lane = 2 THEN 1 ELSE 0 END, run_at, id';
  const due = `(
        ${lane(0, "state = 'queued' AND attempt > 0 AND run_at <= ?")}
        UNION ALL
        ${lane(1, "state = 'running' AND lease_until <= ?")}
        UNION ALL
        ${lane(2, "state = 'queued' AND attempt = 0 AND run_at <= ?")}
      ) due`;
  const allowance = shared
    ? `CASE installation_id ${'WHEN ? THEN CAST(? AS INTEGER) '.repeat(shared.partial)}ELSE CAST(? AS INTEGER) END`
    : null;
  const candidates = allowance
    ? `(SELECT id, lane, run_at, ROW_NUMBER() OVER (PARTITION BY installation_id ORDER BY ${order}) AS nth,
          ${allowance} AS allowance
        FROM ${due}) ranked WHERE nth <= allowance`
    : due;
  return `UPDATE jobs SET state = 'running', lease_until = ?, lease_token = ?, updated_at = ?
    WHERE id IN (
      SELECT id FROM ${candidates} ORDER BY ${order} LIMIT ?
    ) RETURNING ${COLUMNS}`;
}

/**
 * The queue's size now, per kind: waiting (queued), of those already due, held (a slow endpoint's), in
 * flight (running), and the oldest due time (how far behind the workers are). One pass over the
 * `jobs_due` index range of the unfinished jobs. Parameters: now, now.
 */
export const QUEUE_STATS = `SELECT kind,
    SUM(CASE WHEN state = 'queued' THEN 1 ELSE 0 END) AS queued,
    SUM(CASE WHEN state = 'held' THEN 1 ELSE 0 END) AS held,
    SUM(CASE WHEN state = 'queued' AND run_at <= ? THEN 1 ELSE 0 END) AS due,
    SUM(CASE WHEN state = 'running' THEN 1 ELSE 0 END) AS running,
    MIN(CASE WHEN state = 'queued' AND run_at <= ? THEN run_at END) AS oldest_due
  FROM jobs WHERE state IN ('queued', 'held', 'running') GROUP BY kind ORDER BY kind`;

/**
 * Claims an installation's oldest held jobs: the `jobs_held` index range of one installation, cut at the
 * limit. Parameters: leaseUntil, token, now, installation id, limit.
 */
export function claimHeldStatement(dialect: Sql['dialect']): string {
  const lock = dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  return `UPDATE jobs SET state = 'running', lease_until = ?, lease_token = ?, updated_at = ?
    WHERE id IN (
      SELECT id FROM jobs WHERE state = 'held' AND installation_id = ? ORDER BY run_at, id LIMIT ? ${lock}
    ) RETURNING ${COLUMNS}`;
}

/** Order of claimed jobs (RETURNING has none): retries first, then oldest runAt. */
export function claimOrder(a: JobRecord, b: JobRecord): number {
  return (
    Number(b.attempt > 0) - Number(a.attempt > 0) ||
    a.runAt - b.runAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
