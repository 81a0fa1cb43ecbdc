import { openConfiguration, type SecretBox, sealConfiguration } from '../../secrets/index.js';
import { StorageError } from '../errors.js';
import { newId } from '../ids.js';
import { type EventScope, installationMatches } from '../matching.js';
import { json, num, str, strOrNull } from '../rows.js';
import type { Row, Sql, SqlValue } from '../sql.js';
import type { InstallationRecord, InstallationStatus, InstallationTarget, SpaceSelection } from '../types.js';
import { type IntegrationMeta, META_COLUMNS, toMeta } from './integrations.js';
import { cancelJobsForInstallation } from './queue.js';
import { epochOf, ROUTING_EPOCH } from './routing-epoch.js';

/** What `create` takes; `id` is generated (`inst_...`) unless given. */
export interface CreateInstallationInput {
  id?: string;
  integrationName: string;
  target: InstallationTarget;
  spaceId?: string | null;
  siteId?: string | null;
  organizationId?: string | null;
  ownerOrganization?: string | null;
  configuration?: Record<string, unknown>;
  status?: InstallationStatus;
  tokenHash: string;
  externalIds?: string[];
  spaceSelection?: SpaceSelection;
  now?: number;
}

/** Fields `update` can change. */
export interface InstallationPatch {
  configuration?: Record<string, unknown>;
  status?: InstallationStatus;
  tokenHash?: string;
  externalIds?: string[];
  spaceSelection?: SpaceSelection;
}

/** Filters of `list`. */
export interface InstallationFilter {
  integrationName?: string;
  spaceId?: string;
  siteId?: string;
  organizationId?: string;
  /** Installations owned by this organization. */
  ownerOrganization?: string;
}

/**
 * Installations.
 *
 * @example
 * const inst = await storage.installations.create({ integrationName: 'hello', target: 'space', spaceId: 'sp1', tokenHash });
 * await storage.installations.update(inst.id, { status: 'active' });
 * const targets = await storage.installations.matching({ spaceId: 'sp1' });
 */
export interface InstallationsRepo {
  create(input: CreateInstallationInput): Promise<InstallationRecord>;
  get(id: string): Promise<InstallationRecord | null>;
  getByTokenHash(tokenHash: string): Promise<InstallationRecord | null>;
  /** Applies `patch` (whole values, no merge) and returns the new record; `StorageError('not_found')` if absent. */
  update(id: string, patch: InstallationPatch, now?: number): Promise<InstallationRecord>;
  /** Deletes the installation and its webhook secrets, and cancels its queued/running jobs, atomically. */
  delete(id: string, now?: number): Promise<boolean>;
  /** Oldest first. */
  list(filter?: InstallationFilter): Promise<InstallationRecord[]>;
  /** The ACTIVE installations an event in `scope` reaches (rules in `installationMatches`). */
  matching(scope: EventScope & { integrationName?: string }): Promise<InstallationRecord[]>;
  /**
   * `matching` with each installation's integration (the routing metadata of its latest version), in one
   * read: what an accepted event fans out to. An installation whose integration has no version is left out.
   * `epoch` is the routing epoch the read saw (null when the scope reaches no installation whatever the
   * database holds): pass it to `events.insertWithJobs` to store events routed by it only if no
   * installation, integration or webhook secret changed since (docs/architecture.md, "Accepting events").
   *
   * @example
   * const { epoch, routes } = await storage.installations.routes({ spaceId: 'sp1' });
   * for (const { installation, integration } of routes) {
   *   // integration.manifest says what the installation receives
   * }
   */
  routes(scope: EventScope): Promise<RoutingRead>;
  /**
   * Gives the installations of a space or site that have no owner (made by the operator before the
   * directory knew the owner) to `organizationId`; returns how many. Called when the directory records an owner.
   */
  adopt(kind: 'space' | 'site', resourceId: string, organizationId: string, now?: number): Promise<number>;
}

/** What `installations.routes` read: the routes and the routing epoch they are valid at. */
export interface RoutingRead {
  /** The routing epoch of the read; null: the scope reaches no installation, whatever changes. */
  epoch: number | null;
  routes: InstallationRoute[];
}

/** An installation an event reaches, with the routing metadata of its integration's latest version. */
export interface InstallationRoute {
  installation: InstallationRecord;
  integration: IntegrationMeta;
}

const META_COLUMN_NAMES = META_COLUMNS.split(', ');

/** The row of `routes` as `toMeta` reads it (its integration columns are `meta_name`, ...). */
function metaRow(row: Row): Row {
  const out: Row = {};
  for (const column of META_COLUMN_NAMES) out[column] = row[`meta_${column}`];
  return out;
}

/** The owner of a space or site in the directory, as a scalar subquery on one `?` (the resource id). */
const ownerOf = (kind: 'space' | 'site') =>
  `(SELECT o.organization_id FROM resource_owners o WHERE o.kind = '${kind}' AND o.resource_id = ?)`;

/**
 * The WHERE clause (on installations aliased `i`) of the active installations `scope` may reach, or null.
 * An installation owned by an organization receives a space's or site's events only while the directory
 * names that organization as its owner; the operator's (no owner) always (docs/security.md "Organizations").
 */
function scopeWhere(scope: EventScope): { where: string; values: SqlValue[] } | null {
  const ors: string[] = [];
  const values: SqlValue[] = [];
  const ownedBy = (kind: 'space' | 'site', id: string) => {
    values.push(id);
    return `(i.owner_organization IS NULL OR i.owner_organization = ${ownerOf(kind)})`;
  };
  if (scope.spaceId) {
    values.push(scope.spaceId);
    ors.push(`(i.target = 'space' AND i.space_id = ? AND ${ownedBy('space', scope.spaceId)})`);
  }
  if (scope.siteId) {
    values.push(scope.siteId);
    ors.push(`(i.target = 'site' AND i.site_id = ? AND ${ownedBy('site', scope.siteId)})`);
  }
  if (scope.spaceId || scope.organizationId) {
    const parts = ["i.target = 'organization'"];
    if (scope.organizationId) {
      parts.push('i.organization_id = ?');
      values.push(scope.organizationId);
    }
    if (scope.spaceId) parts.push(ownedBy('space', scope.spaceId));
    ors.push(`(${parts.join(' AND ')})`);
  }
  if (ors.length === 0) return null;
  return { where: `i.status = 'active' AND (${ors.join(' OR ')})`, values };
}

const COLUMNS =
  'id, integration_name, target, space_id, site_id, organization_id, configuration, status, token_hash, external_ids, space_selection, created_at, updated_at, owner_organization';

/** The select list of `routes`: the installation's columns, then its integration's under `meta_` names. */
const ROUTE_COLUMNS = [
  ...COLUMNS.split(', ').map((column) => `i.${column}`),
  ...META_COLUMN_NAMES.map((column) => `g.${column} AS meta_${column}`),
].join(', ');

/** A record with its configuration's secret values opened (sealed at rest, src/secrets/README.md). */
function recordOf(row: Row, box: SecretBox): InstallationRecord {
  return {
    id: str(row, 'id'),
    integrationName: str(row, 'integration_name'),
    target: str(row, 'target') as InstallationTarget,
    spaceId: strOrNull(row, 'space_id'),
    siteId: strOrNull(row, 'site_id'),
    organizationId: strOrNull(row, 'organization_id'),
    ownerOrganization: strOrNull(row, 'owner_organization'),
    configuration: openConfiguration(box, json(row, 'configuration')),
    status: str(row, 'status') as InstallationStatus,
    tokenHash: str(row, 'token_hash'),
    externalIds: json(row, 'external_ids'),
    spaceSelection: json(row, 'space_selection'),
    createdAt: num(row, 'created_at'),
    updatedAt: num(row, 'updated_at'),
  };
}

/** Builds the installations repository on an adapter (or transaction handle). */
export function installationsRepo(sql: Sql, box: SecretBox): InstallationsRepo {
  const toRecord = (row: Row) => recordOf(row, box);
  const get = async (id: string) => {
    const row = await sql.get(`SELECT ${COLUMNS} FROM installations WHERE id = ?`, [id]);
    return row ? toRecord(row) : null;
  };

  return {
    async create(input) {
      const now = input.now ?? Date.now();
      const record: InstallationRecord = {
        id: input.id ?? newId('inst'),
        integrationName: input.integrationName,
        target: input.target,
        spaceId: input.spaceId ?? null,
        siteId: input.siteId ?? null,
        organizationId: input.organizationId ?? null,
        ownerOrganization: input.ownerOrganization ?? null,
        configuration: input.configuration ?? {},
        status: input.status ?? 'pending',
        tokenHash: input.tokenHash,
        externalIds: input.externalIds ?? [],
        spaceSelection: input.spaceSelection ?? { mode: 'selected', spaces: [] },
        createdAt: now,
        updatedAt: now,
      };
      await sql.run(
        `INSERT INTO installations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.integrationName,
          record.target,
          record.spaceId,
          record.siteId,
          record.organizationId,
          JSON.stringify(sealConfiguration(box, record.configuration)),
          record.status,
          record.tokenHash,
          JSON.stringify(record.externalIds),
          JSON.stringify(record.spaceSelection),
          record.createdAt,
          record.updatedAt,
          record.ownerOrganization,
        ],
      );
      return record;
    },

    get,

    async getByTokenHash(tokenHash) {
      const row = await sql.get(`SELECT ${COLUMNS} FROM installations WHERE token_hash = ?`, [tokenHash]);
      return row ? toRecord(row) : null;
    },

    update: (id, patch, now = Date.now()) =>
      sql.transaction(async (tx) => {
        const sets: string[] = ['updated_at = ?'];
        const values: SqlValue[] = [now];
        const add = (column: string, value: SqlValue) => {
          sets.push(`${column} = ?`);
          values.push(value);
        };
        if (patch.configuration !== undefined)
          add('configuration', JSON.stringify(sealConfiguration(box, patch.configuration)));
        if (patch.status !== undefined) add('status', patch.status);
        if (patch.tokenHash !== undefined) add('token_hash', patch.tokenHash);
        if (patch.externalIds !== undefined) add('external_ids', JSON.stringify(patch.externalIds));
        if (patch.spaceSelection !== undefined) add('space_selection', JSON.stringify(patch.spaceSelection));
        const { changes } = await tx.run(`UPDATE installations SET ${sets.join(', ')} WHERE id = ?`, [
          ...values,
          id,
        ]);
        const row =
          changes > 0 ? await tx.get(`SELECT ${COLUMNS} FROM installations WHERE id = ?`, [id]) : undefined;
        if (!row) throw new StorageError('not_found', `installation ${id} does not exist`);
        return toRecord(row);
      }),

    delete: (id, now = Date.now()) =>
      sql.transaction(async (tx) => {
        await cancelJobsForInstallation(tx, id, now);
        await tx.run('DELETE FROM webhook_secrets WHERE installation_id = ?', [id]);
        const { changes } = await tx.run('DELETE FROM installations WHERE id = ?', [id]);
        return changes > 0;
      }),

    async list(filter = {}) {
      const where: string[] = [];
      const values: SqlValue[] = [];
      const add = (column: string, value: string | undefined) => {
        if (value === undefined) return;
        where.push(`${column} = ?`);
        values.push(value);
      };
      add('integration_name', filter.integrationName);
      add('space_id', filter.spaceId);
      add('site_id', filter.siteId);
      add('organization_id', filter.organizationId);
      add('owner_organization', filter.ownerOrganization);
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM installations ${clause} ORDER BY created_at, id`,
        values,
      );
      return rows.map(toRecord);
    },

    async matching(scope) {
      const found = scopeWhere(scope);
      if (!found) return [];
      let query = `SELECT ${COLUMNS} FROM installations i WHERE ${found.where}`;
      const values = [...found.values];
      if (scope.integrationName) {
        query += ' AND i.integration_name = ?';
        values.push(scope.integrationName);
      }
      const rows = await sql.all(`${query} ORDER BY i.created_at, i.id`, values);
      return rows.map(toRecord).filter((installation) => installationMatches(installation, scope));
    },

    async routes(scope) {
      const found = scopeWhere(scope);
      if (!found) return { epoch: null, routes: [] };
      // The epoch row joined with the routes: one statement, one snapshot, an epoch even with no route.
      const rows = await sql.all(
        `SELECT ${ROUTING_EPOCH} AS routing_epoch, r.*
           FROM (SELECT 1 AS one) o
           LEFT JOIN (SELECT ${ROUTE_COLUMNS}
                        FROM installations i
                        JOIN integrations g ON g.name = i.integration_name
                         AND g.publish_seq = (SELECT MAX(publish_seq) FROM integrations WHERE name = i.integration_name)
                       WHERE ${found.where}) r ON 1 = 1
          ORDER BY r.created_at, r.id`,
        found.values,
      );
      return {
        epoch: epochOf(rows[0], 'routing_epoch'),
        routes: rows
          .filter((row) => row.id !== null && row.id !== undefined)
          .map((row) => ({ installation: toRecord(row), integration: toMeta(metaRow(row)) }))
          .filter(({ installation }) => installationMatches(installation, scope)),
      };
    },

    async adopt(kind, resourceId, organizationId, now = Date.now()) {
      const column = kind === 'space' ? 'space_id' : 'site_id';
      const { changes } = await sql.run(
        `UPDATE installations SET owner_organization = ?, updated_at = ?
          WHERE target = ? AND ${column} = ? AND owner_organization IS NULL`,
        [organizationId, now, kind, resourceId],
      );
      return changes;
    },
  };
}
