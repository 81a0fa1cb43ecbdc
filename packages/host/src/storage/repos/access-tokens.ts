import { insertRecord, json, num, numOrNull, type RowMapper, rowMapper, str, strOrNull } from '../rows.js';
import type { Sql } from '../sql.js';

/** An organization token (`pot_…`). Only the SHA-256 of the token is stored. */
export interface OrganizationTokenRecord {
  id: string;
  organizationId: string;
  name: string;
  tokenHash: string;
  scopes: string[];
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  /** Who created it: `operator`, or `token:<id>` of the organization token that did. */
  createdBy: string;
  createdAt: number;
}

/** A subscriber portal session (`pps_…`): one webhook installation, or every one of an organization. */
export interface PortalSessionRecord {
  id: string;
  tokenHash: string;
  organizationId: string | null;
  installationId: string | null;
  expiresAt: number;
  revokedAt: number | null;
  createdBy: string;
  createdAt: number;
}

/**
 * Organization tokens and portal sessions: the bearer credentials the host issues and stores hashed
 * (docs/security.md "Organizations"). Looked up by the hash of the presented token.
 *
 * @example
 * await storage.accessTokens.createToken({ id: 'tok_1', organizationId: 'acme', name: 'ci', tokenHash, scopes: ['integrations:publish'], expiresAt: null, createdBy: 'operator' });
 * const token = await storage.accessTokens.tokenByHash(tokenHash);
 */
export interface AccessTokensRepo {
  createToken(
    input: Omit<OrganizationTokenRecord, 'revokedAt' | 'lastUsedAt' | 'createdAt'> & { now?: number },
  ): Promise<OrganizationTokenRecord>;
  tokenByHash(tokenHash: string): Promise<OrganizationTokenRecord | null>;
  getToken(id: string): Promise<OrganizationTokenRecord | null>;
  /** An organization's tokens, revoked ones included, oldest first. */
  listTokens(organizationId: string): Promise<OrganizationTokenRecord[]>;
  /** Marks the token revoked (once); false when it does not exist or was revoked already. */
  revokeToken(id: string, now?: number): Promise<boolean>;
  touchToken(id: string, now?: number): Promise<void>;
  createSession(
    input: Omit<PortalSessionRecord, 'revokedAt' | 'createdAt'> & { now?: number },
  ): Promise<PortalSessionRecord>;
  sessionByHash(tokenHash: string): Promise<PortalSessionRecord | null>;
  getSession(id: string): Promise<PortalSessionRecord | null>;
  revokeSession(id: string, now?: number): Promise<boolean>;
  /** Deletes sessions that expired before `before`; returns how many. */
  pruneSessions(before: number): Promise<number>;
}

const toToken = rowMapper<OrganizationTokenRecord>({
  id: str,
  organizationId: str,
  name: str,
  tokenHash: str,
  scopes: json,
  expiresAt: numOrNull,
  revokedAt: numOrNull,
  lastUsedAt: numOrNull,
  createdBy: str,
  createdAt: num,
});

const toSession = rowMapper<PortalSessionRecord>({
  id: str,
  tokenHash: str,
  organizationId: strOrNull,
  installationId: strOrNull,
  expiresAt: num,
  revokedAt: numOrNull,
  createdBy: str,
  createdAt: num,
});

/** Builds the access tokens repository on an adapter (or transaction handle). */
export function accessTokensRepo(sql: Sql): AccessTokensRepo {
  const tokens = bearerTable(sql, 'organization_tokens', toToken);
  const sessions = bearerTable(sql, 'portal_sessions', toSession);
  return {
    async createToken({ now = Date.now(), ...input }) {
      const record: OrganizationTokenRecord = { ...input, revokedAt: null, lastUsedAt: null, createdAt: now };
      await tokens.insert(record);
      return record;
    },
    tokenByHash: tokens.byHash,
    getToken: tokens.byId,
    async listTokens(organizationId) {
      const rows = await sql.all(
        `SELECT ${toToken.columns} FROM organization_tokens WHERE organization_id = ? ORDER BY created_at, id`,
        [organizationId],
      );
      return rows.map(toToken);
    },
    revokeToken: (id, now = Date.now()) => tokens.revoke(id, now),
    async touchToken(id, now = Date.now()) {
      await sql.run('UPDATE organization_tokens SET last_used_at = ? WHERE id = ?', [now, id]);
    },
    async createSession({ now = Date.now(), ...input }) {
      const record: PortalSessionRecord = { ...input, revokedAt: null, createdAt: now };
      await sessions.insert(record);
      return record;
    },
    sessionByHash: sessions.byHash,
    getSession: sessions.byId,
    revokeSession: (id, now = Date.now()) => sessions.revoke(id, now),
    async pruneSessions(before) {
      return (await sql.run('DELETE FROM portal_sessions WHERE expires_at < ?', [before])).changes;
    },
  };
}

/** What tokens and sessions share: a table of hashed bearer credentials, revoked once. */
function bearerTable<T>(sql: Sql, table: 'organization_tokens' | 'portal_sessions', mapper: RowMapper<T>) {
  const one = async (column: 'id' | 'token_hash', value: string) => {
    const row = await sql.get(`SELECT ${mapper.columns} FROM ${table} WHERE ${column} = ?`, [value]);
    return row ? mapper(row) : null;
  };
  return {
    insert: (record: T) => insertRecord(sql, table, mapper, record),
    byHash: (hash: string) => one('token_hash', hash),
    byId: (id: string) => one('id', id),
    /** Marks the row revoked; false when there is none, or it already was. */
    async revoke(id: string, now: number) {
      const { changes } = await sql.run(
        `UPDATE ${table} SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`,
        [now, id],
      );
      return changes > 0;
    },
  };
}
