import { numOrNull, rowMapper, str } from '../rows.js';
import type { Sql } from '../sql.js';

/** The stored health of a webhook endpoint that is failing, disabled, or enabled again (healthy ones have none). */
export interface EndpointHealthRecord {
  installationId: string;
  /** Start of the current run of exhausted deliveries (ms), or null. */
  failingSince: number | null;
  /** When it was disabled (ms), or null. */
  disabledAt: number | null;
  /** When it was enabled again after being disabled (ms), until a delivery succeeds; or null. */
  enabledAt: number | null;
  updatedAt: number;
}

/** The state part of a record (what `delivery/health.ts` decides on). */
export type EndpointHealthFields = Pick<EndpointHealthRecord, 'failingSince' | 'disabledAt' | 'enabledAt'>;

/**
 * `storage.endpointHealth`: which webhook endpoints are failing or disabled (docs/contracts.md "Endpoint
 * health"), and the deliveries kept for a disabled one.
 *
 * @example
 * const { state } = await storage.endpointHealth.change('inst_1', Date.now(), (s) => ({ state: { ...s, disabledAt: Date.now() } }));
 * await storage.endpointHealth.holdDeliveries('inst_1', Date.now());
 * const tracked = await storage.endpointHealth.list(); // every failing or disabled endpoint
 */
export interface EndpointHealthRepo {
  /** Every tracked endpoint (few: healthy ones have no record). */
  list(): Promise<EndpointHealthRecord[]>;
  get(installationId: string): Promise<EndpointHealthRecord | null>;
  /**
   * Reads the endpoint's state (healthy when there is no record), applies `step` and stores its `state`
   * (a healthy one is deleted), in one transaction; the row is locked meanwhile (PostgreSQL: other hosts
   * wait). Returns what `step` returned.
   */
  change<T extends { state: EndpointHealthFields }>(
    installationId: string,
    now: number,
    step: (state: EndpointHealthFields) => T,
  ): Promise<T>;
  /** Moves the installation's queued deliveries to `held` (kept, not claimed); returns how many. */
  holdDeliveries(installationId: string, now: number): Promise<number>;
  /** Held deliveries of an installation (a disabled endpoint's kept ones). */
  countHeld(installationId: string): Promise<number>;
  /** Cancels the installation's held and queued deliveries (what was kept, not delivered); returns how many. */
  cancelKept(installationId: string, now: number): Promise<number>;
}

const COLUMNS = 'installation_id, failing_since, disabled_at, enabled_at, updated_at';

const toRecord = rowMapper<EndpointHealthRecord>({
  installationId: str,
  failingSince: numOrNull,
  disabledAt: numOrNull,
  enabledAt: numOrNull,
  updatedAt: (row, column) => numOrNull(row, column) ?? 0,
});

/** Builds the endpoint health repository on an adapter (or transaction handle). */
export function endpointHealthRepo(sql: Sql): EndpointHealthRepo {
  const get = async (installationId: string) => {
    const row = await sql.get(`SELECT ${COLUMNS} FROM endpoint_health WHERE installation_id = ?`, [
      installationId,
    ]);
    return row ? toRecord(row) : null;
  };
  return {
    async list() {
      return (await sql.all(`SELECT ${COLUMNS} FROM endpoint_health ORDER BY installation_id`)).map(toRecord);
    },
    get,
    change(installationId, now, step) {
      return sql.transaction(async (tx) => {
        const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
        const row = await tx.get(`SELECT ${COLUMNS} FROM endpoint_health WHERE installation_id = ?${lock}`, [
          installationId,
        ]);
        const current: EndpointHealthFields = row
          ? toRecord(row)
          : { failingSince: null, disabledAt: null, enabledAt: null };
        const result = step({
          failingSince: current.failingSince,
          disabledAt: current.disabledAt,
          enabledAt: current.enabledAt,
        });
        const { failingSince, disabledAt, enabledAt } = result.state;
        if (failingSince === null && disabledAt === null && enabledAt === null) {
          if (row) await tx.run('DELETE FROM endpoint_health WHERE installation_id = ?', [installationId]);
        } else {
          await tx.run(
            `INSERT INTO endpoint_health (${COLUMNS}) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (installation_id) DO UPDATE SET failing_since = excluded.failing_since,
               disabled_at = excluded.disabled_at, enabled_at = excluded.enabled_at, updated_at = excluded.updated_at`,
            [installationId, failingSince, disabledAt, enabledAt, now],
          );
        }
        return result;
      });
    },
    async holdDeliveries(installationId, now) {
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'held', updated_at = ?
         WHERE installation_id = ? AND kind = 'deliver' AND state = 'queued'`,
        [now, installationId],
      );
      return changes;
    },
    async countHeld(installationId) {
      const row = await sql.get(
        `SELECT COUNT(*) AS n FROM jobs WHERE installation_id = ? AND kind = 'deliver' AND state = 'held'`,
        [installationId],
      );
      return row ? Number(row.n) : 0;
    },
    async cancelKept(installationId, now) {
      const { changes } = await sql.run(
        `UPDATE jobs SET state = 'cancelled', lease_until = NULL, lease_token = NULL, finished_at = ?, updated_at = ?
         WHERE installation_id = ? AND kind = 'deliver' AND state IN ('queued', 'held')`,
        [now, now, installationId],
      );
      return changes;
    },
  };
}
