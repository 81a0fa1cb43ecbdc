import { addCondition, deleteOldest, insertRecord, json, num, rowMapper, str, strOrNull } from '../rows.js';
import type { Sql, SqlValue } from '../sql.js';
import type { Json } from '../types.js';

/** One entry of the audit log: who did what to which resource, and what changed (never a secret value). */
export interface AuditRecord {
  id: string;
  at: number;
  /** `operator`, `organization`, `installation` or `portal`. */
  actor: string;
  /** The organization of the token that acted (organization tokens and portal sessions). */
  actorOrganization: string | null;
  tokenId: string | null;
  tokenName: string | null;
  /** The organization that owns the resource: whose audit log shows the entry. */
  organizationId: string | null;
  action: string;
  resourceType: string;
  resourceId: string;
  changes: Record<string, Json>;
}

/** An audit entry from its `audit_log` row; its `columns` and `values` are the table's. */
const toRecord = rowMapper<AuditRecord>({
  id: str,
  at: num,
  actor: str,
  actorOrganization: strOrNull,
  tokenId: strOrNull,
  tokenName: strOrNull,
  organizationId: strOrNull,
  action: str,
  resourceType: str,
  resourceId: str,
  changes: json,
});

/** Filters of `list`: newest first, before the cursor (an entry id). */
export interface AuditFilter {
  organizationId?: string;
  action?: string;
  resourceId?: string;
  limit?: number;
  /** Only entries older than this entry id. */
  before?: string;
}

/**
 * The audit log (docs/security.md "Audit log").
 *
 * @example
 * await storage.audit.append({ id: newSortableId('aud'), at: Date.now(), actor: 'operator', ... });
 * const page = await storage.audit.list({ organizationId: 'acme', limit: 50 });
 */
export interface AuditRepo {
  append(record: AuditRecord): Promise<void>;
  list(filter?: AuditFilter): Promise<AuditRecord[]>;
  /** Deletes up to `limit` entries older than `before` (retention); returns how many. */
  deleteOlderThan(before: number, limit: number): Promise<number>;
}

/** Builds the audit repository on an adapter (or transaction handle). */
export function auditRepo(sql: Sql): AuditRepo {
  return {
    append: (record) => insertRecord(sql, 'audit_log', toRecord, record),
    async list(filter = {}) {
      const where: string[] = [];
      const values: SqlValue[] = [];
      // an organization sees what was done to its resources and what its own tokens did
      addCondition(where, values, '(organization_id = ? OR actor_organization = ?)', filter.organizationId);
      addCondition(where, values, 'action = ?', filter.action);
      addCondition(where, values, 'resource_id = ?', filter.resourceId);
      addCondition(where, values, 'id < ?', filter.before);
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const rows = await sql.all(
        `SELECT ${toRecord.columns} FROM audit_log ${clause} ORDER BY id DESC LIMIT ?`,
        [...values, filter.limit ?? 100],
      );
      return rows.map(toRecord);
    },
    deleteOlderThan: (before, limit) =>
      deleteOldest(sql, { table: 'audit_log', key: 'id', column: 'at' }, before, limit),
  };
}
