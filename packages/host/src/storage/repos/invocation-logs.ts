import { newId } from '../ids.js';
import { deleteOldest, json, num, rowMapper, str, strOrNull } from '../rows.js';
import type { Sql, SqlValue } from '../sql.js';
import type { InvocationLogRecord } from '../types.js';

/** What `insert` takes; `id` defaults to `log_...`, `createdAt` to now. */
export type InvocationLogInput = Omit<InvocationLogRecord, 'id' | 'createdAt'> & {
  id?: string;
  createdAt?: number;
};

/**
 * Invocation logs: one row per call into an integration, with the lines it logged.
 *
 * @example
 * await storage.invocationLogs.insert({ installationId, integrationName: 'hello', eventType: 'fetch',
 *   eventId: null, status: 200, durationMs: 12, lines: [{ level: 'info', message: 'hi', time: Date.now() }] });
 * const recent = await storage.invocationLogs.list(installationId, { limit: 20 });
 */
export interface InvocationLogsRepo {
  insert(input: InvocationLogInput): Promise<InvocationLogRecord>;
  /** Newest first; `since` inclusive on createdAt; `limit` default 100, at most 1000. */
  list(installationId: string, options?: { limit?: number; since?: number }): Promise<InvocationLogRecord[]>;
  /** The invocations of one integration across all its installations, newest first (its author's view). */
  listByIntegration(
    integrationName: string,
    options?: { limit?: number; since?: number },
  ): Promise<InvocationLogRecord[]>;
  /** Deletes up to `limit` logs created before `before` (oldest first); returns how many. */
  prune(before: number, limit: number): Promise<number>;
}

const toRecord = rowMapper<InvocationLogRecord>({
  id: str,
  installationId: strOrNull,
  integrationName: str,
  eventType: str,
  eventId: strOrNull,
  status: (row, column) => {
    const status = str(row, column);
    return status === 'error' ? 'error' : Number(status);
  },
  durationMs: num,
  lines: json,
  createdAt: num,
});

/** Builds the invocation logs repository on an adapter (or transaction handle). */
export function invocationLogsRepo(sql: Sql): InvocationLogsRepo {
  return {
    async insert(input) {
      const record: InvocationLogRecord = {
        ...input,
        id: input.id ?? newId('log'),
        createdAt: input.createdAt ?? Date.now(),
      };
      await sql.run(`INSERT INTO invocation_logs (${toRecord.columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        record.id,
        record.installationId,
        record.integrationName,
        record.eventType,
        record.eventId,
        String(record.status),
        record.durationMs,
        JSON.stringify(record.lines),
        record.createdAt,
      ]);
      return record;
    },

    list: (installationId, options = {}) => listWhere('installation_id', installationId, options),
    listByIntegration: (name, options = {}) => listWhere('integration_name', name, options),

    prune: (before, limit) =>
      deleteOldest(sql, { table: 'invocation_logs', key: 'id', column: 'created_at' }, before, limit),
  };

  async function listWhere(
    column: 'installation_id' | 'integration_name',
    value: string,
    options: { limit?: number; since?: number },
  ) {
    const limit = Math.min(Math.max(Math.floor(options.limit ?? 100), 1), 1000);
    const values: SqlValue[] = [value];
    let where = `${column} = ?`;
    if (options.since !== undefined) {
      where += ' AND created_at >= ?';
      values.push(options.since);
    }
    const rows = await sql.all(
      `SELECT ${toRecord.columns} FROM invocation_logs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
      [...values, limit],
    );
    return rows.map(toRecord);
  }
}
