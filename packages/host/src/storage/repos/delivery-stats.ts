// Delivery statistics (migration 14): the per-minute and per-hour figures the rollup (stats/rollup.ts)
// writes, and what it reads them from: the attempts of a span of time, and the backlog now.
import { num, numOrNull, rowMapper, str, strOrNull } from '../rows.js';
import type { Sql, SqlValue } from '../sql.js';

/** One attempt of a delivery, as the rollup reads it (see `attempts`). */
export interface AttemptRow {
  jobId: string;
  installationId: string;
  series: number;
  number: number;
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  /** The error's code: the stored error text up to its first `:`. */
  errorCode: string | null;
  createdAt: number;
}

/** Where a page of `attempts` ends: the next page starts after it. */
export interface AttemptCursor {
  startedAt: number;
  jobId: string;
  series: number;
  number: number;
}

/** One stored row of figures. `installationId` '' is the host-wide row. */
export interface StatsRow {
  resolutionMs: number;
  installationId: string;
  bucketAt: number;
  attempts: number;
  succeeded: number;
  retried: number;
  failed: number;
  /** JSON text of a histogram (stats/histogram.ts). */
  durationHist: string;
  firstAttemptHist: string;
  /** Null: not sampled (an upsert with null keeps what is stored). */
  backlogQueued: number | null;
  backlogDue: number | null;
}

/**
 * The delivery statistics (docs/operations.md "Charts").
 *
 * @example
 * const page = await storage.deliveryStats.attempts(from, from + 60_000, null, 1000);
 * await storage.deliveryStats.upsert(rows, Date.now());
 * const rows = await storage.deliveryStats.read(60_000, '', from, to);
 */
export interface DeliveryStatsRepo {
  /**
   * Attempts of `deliver` jobs started in [from, to), in (started_at, job, series, number) order, after
   * `after`, at most `limit`: one range of `job_attempts_started`, each with its job's row by key.
   */
  attempts(from: number, to: number, after: AttemptCursor | null, limit: number): Promise<AttemptRow[]>;
  /** Deliveries waiting now (queued or held) per installation, and how many of them are due. */
  backlog(now: number): Promise<{ installationId: string; queued: number; due: number }[]>;
  /**
   * Writes rows, replacing the stored figures of the same (resolution, installation, bucket): recomputed
   * figures overwrite, so rolling a minute up twice, or on two hosts, counts it once. A null backlog keeps
   * the stored sample.
   */
  upsert(rows: readonly StatsRow[], now: number): Promise<void>;
  /** Rows of one resolution and installation ('' host-wide) with `bucketAt` in [from, to), oldest first. */
  read(resolutionMs: number, installationId: string, from: number, to: number): Promise<StatsRow[]>;
  /** Rows of one resolution and every installation with `bucketAt` in [from, to). */
  readAll(resolutionMs: number, from: number, to: number): Promise<StatsRow[]>;
  /** Deletes rows of one resolution older than `before`; returns how many. */
  prune(resolutionMs: number, before: number): Promise<number>;
}

const UPSERT_COLUMNS = 12;
/** Rows per statement (12 values each, under SQLite's and PostgreSQL's parameter limits). */
const UPSERT_CHUNK = 200;

const toStatsRow = rowMapper<StatsRow>({
  resolutionMs: num,
  installationId: str,
  bucketAt: num,
  attempts: num,
  succeeded: num,
  retried: num,
  failed: num,
  durationHist: str,
  firstAttemptHist: str,
  backlogQueued: numOrNull,
  backlogDue: numOrNull,
});

/**
 * One page of attempts: one range of `job_attempts_started`, each with its job by key. Parameters: from, to,
 * (with `cursor`: started_at twice, job id twice, series twice, number), limit.
 */
export function attemptsStatement(cursor: boolean): string {
  const after = cursor
    ? ' AND (a.started_at > ? OR (a.started_at = ? AND (a.job_id > ? OR (a.job_id = ? AND (a.series > ? OR (a.series = ? AND a.number > ?))))))'
    : '';
  return `SELECT a.job_id, j.installation_id, a.series, a.number, a.started_at, a.duration_ms, a.status_code,
      substr(a.error, 1, 40) AS error, j.created_at
    FROM job_attempts a JOIN jobs j ON j.id = a.job_id
    WHERE a.started_at >= ? AND a.started_at < ? AND j.kind = 'deliver'${after}
    ORDER BY a.started_at, a.job_id, a.series, a.number LIMIT ?`;
}

/**
 * Waiting deliveries per installation: one range of each partial index of waiting jobs (jobs_first_due,
 * jobs_retry_due, jobs_held), so the cost grows with the backlog, not with the history in `jobs`.
 * Parameters: now, now.
 */
export const BACKLOG_STATEMENT = `SELECT installation_id, SUM(n) AS queued, SUM(due) AS due FROM (
    SELECT installation_id, 1 AS n, CASE WHEN run_at <= ? THEN 1 ELSE 0 END AS due
      FROM jobs WHERE kind = 'deliver' AND state = 'queued' AND attempt = 0
    UNION ALL
    SELECT installation_id, 1, CASE WHEN run_at <= ? THEN 1 ELSE 0 END
      FROM jobs WHERE kind = 'deliver' AND state = 'queued' AND attempt > 0
    UNION ALL
    SELECT installation_id, 1, 0 FROM jobs WHERE state = 'held' AND kind = 'deliver'
  ) waiting GROUP BY installation_id ORDER BY installation_id`;

/** Builds the delivery statistics repository on an adapter (or transaction handle). */
export function deliveryStatsRepo(sql: Sql): DeliveryStatsRepo {
  return {
    async attempts(from, to, after, limit) {
      const cursorValues: SqlValue[] = after
        ? [
            after.startedAt,
            after.startedAt,
            after.jobId,
            after.jobId,
            after.series,
            after.series,
            after.number,
          ]
        : [];
      const rows = await sql.all(attemptsStatement(after !== null), [from, to, ...cursorValues, limit]);
      return rows.map((row) => {
        const error = strOrNull(row, 'error');
        return {
          jobId: str(row, 'job_id'),
          installationId: str(row, 'installation_id'),
          series: num(row, 'series'),
          number: num(row, 'number'),
          startedAt: num(row, 'started_at'),
          durationMs: num(row, 'duration_ms'),
          statusCode: numOrNull(row, 'status_code'),
          errorCode: error === null ? null : (error.split(':')[0] ?? error).trim(),
          createdAt: num(row, 'created_at'),
        };
      });
    },

    async backlog(now) {
      const rows = await sql.all(BACKLOG_STATEMENT, [now, now]);
      return rows.map((row) => ({
        installationId: str(row, 'installation_id'),
        queued: num(row, 'queued'),
        due: num(row, 'due'),
      }));
    },

    async upsert(rows, now) {
      for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
        const chunk = rows.slice(i, i + UPSERT_CHUNK);
        const row = `(${Array.from({ length: UPSERT_COLUMNS }, () => '?').join(', ')})`;
        await sql.run(
          `INSERT INTO delivery_stats (${toStatsRow.columns}, updated_at)
           VALUES ${chunk.map(() => row).join(', ')}
           ON CONFLICT (resolution_ms, installation_id, bucket_at) DO UPDATE SET
             attempts = excluded.attempts, succeeded = excluded.succeeded, retried = excluded.retried,
             failed = excluded.failed, duration_hist = excluded.duration_hist,
             first_attempt_hist = excluded.first_attempt_hist,
             backlog_queued = COALESCE(excluded.backlog_queued, delivery_stats.backlog_queued),
             backlog_due = COALESCE(excluded.backlog_due, delivery_stats.backlog_due),
             updated_at = excluded.updated_at`,
          chunk.flatMap((r) => [...toStatsRow.values(r), now]),
        );
      }
    },

    async read(resolutionMs, installationId, from, to) {
      const rows = await sql.all(
        `SELECT ${toStatsRow.columns} FROM delivery_stats
         WHERE resolution_ms = ? AND installation_id = ? AND bucket_at >= ? AND bucket_at < ? ORDER BY bucket_at`,
        [resolutionMs, installationId, from, to],
      );
      return rows.map(toStatsRow);
    },

    async readAll(resolutionMs, from, to) {
      const rows = await sql.all(
        `SELECT ${toStatsRow.columns} FROM delivery_stats
         WHERE resolution_ms = ? AND bucket_at >= ? AND bucket_at < ? ORDER BY bucket_at, installation_id`,
        [resolutionMs, from, to],
      );
      return rows.map(toStatsRow);
    },

    async prune(resolutionMs, before) {
      const { changes } = await sql.run(
        'DELETE FROM delivery_stats WHERE resolution_ms = ? AND bucket_at < ?',
        [resolutionMs, before],
      );
      return changes;
    },
  };
}
