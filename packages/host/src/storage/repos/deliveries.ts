// The delivery log's repository: the jobs of an installation with their attempts (paged), one job, and
// redelivery (a new series of a finished job). The queue itself is in queue.ts.
import { StorageError } from '../errors.js';
import { homeOf } from '../queue-signals.js';
import { addCondition, str } from '../rows.js';
import { placeholders, type Sql, type SqlValue } from '../sql.js';
import type { JobRecord, JobWithAttempts } from '../types.js';
import { COLUMNS, TERMINAL, toJob, withAttempts } from './job-rows.js';
import type { DeliveryListOptions, DeliveryLogRepo, RedeliverRangeOptions } from './jobs-api.js';

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

/** Adds the `createdAt` range (`since` inclusive, `until` exclusive) to a WHERE list and its values. */
function createdIn(range: { since?: number; until?: number }, where: string[], values: SqlValue[]): void {
  addCondition(where, values, 'created_at >= ?', range.since);
  addCondition(where, values, 'created_at < ?', range.until);
}

/**
 * Builds the delivery log's repository on an adapter (or transaction handle).
 *
 * @example
 * const log = deliveriesRepo(sql);
 * const { items, nextCursor } = await log.listDeliveries('inst_1', { state: 'failed', limit: 20 });
 */
export function deliveriesRepo(sql: Sql): DeliveryLogRepo {
  const getJob = async (id: string): Promise<JobWithAttempts | null> => {
    const row = await sql.get(`SELECT ${COLUMNS} FROM jobs WHERE id = ?`, [id]);
    if (!row) return null;
    const [job] = await withAttempts(sql, [toJob(row)]);
    return job ?? null;
  };

  return {
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
      createdIn(options, where, values);
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
           lease_token = NULL, last_error = NULL, finished_at = NULL, updated_at = ?, home = ?
         WHERE id = ? AND state IN (${placeholders(TERMINAL.length)}) RETURNING ${COLUMNS}`,
        [now, now, homeOf(sql.dialect), jobId, ...TERMINAL],
      );
      // Due now and this process's: no signal (the caller wakes its own worker).
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
      createdIn(options, where, values);
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'queued', series = series + 1, attempt = 0, run_at = ?, lease_until = NULL,
           lease_token = NULL, last_error = NULL, finished_at = NULL, updated_at = ?, home = ?
         WHERE ${where.join(' AND ')}`,
        [now, now, homeOf(sql.dialect), ...values],
      );
      return changes;
    },
  };
}
