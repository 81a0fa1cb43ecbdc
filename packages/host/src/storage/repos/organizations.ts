import { num, str, strOrNull } from '../rows.js';
import type { Row, Sql } from '../sql.js';

/** An organization: a tenant of the host that owns integrations, installations, spaces and sites. */
export interface OrganizationRecord {
  id: string;
  name: string;
  createdAt: number;
}

/** What the directory says of one space or site: which organization owns it. */
export interface ResourceOwnerRecord {
  kind: 'space' | 'site';
  resourceId: string;
  organizationId: string;
  updatedAt: number;
}

/**
 * Organizations, the directory of who owns each space and site, and the integrations' install links
 * (docs/security.md "Organizations").
 *
 * @example
 * await storage.organizations.ensure('acme', 'Acme Inc.');
 * await storage.organizations.setOwner('space', 'sp1', 'acme');
 * await storage.organizations.ownerOf('space', 'sp1'); // 'acme'
 */
export interface OrganizationsRepo {
  /** Creates the organization; false when the id exists already (nothing changed). */
  create(input: { id: string; name: string; now?: number }): Promise<boolean>;
  /** Creates the organization when absent (the name is the id unless given); never changes an existing one. */
  ensure(id: string, name?: string, now?: number): Promise<void>;
  get(id: string): Promise<OrganizationRecord | null>;
  /** Oldest first. */
  list(): Promise<OrganizationRecord[]>;
  /** Records `organizationId` as the owner of a space or site (replacing any previous owner). */
  setOwner(kind: 'space' | 'site', resourceId: string, organizationId: string, now?: number): Promise<void>;
  /** Forgets the owner of a space or site; false when none was recorded. */
  removeOwner(kind: 'space' | 'site', resourceId: string): Promise<boolean>;
  /** The owner of a space or site, or null when the directory has none. */
  ownerOf(kind: 'space' | 'site', resourceId: string): Promise<string | null>;
  /** The spaces and sites an organization owns. */
  ownedBy(organizationId: string): Promise<ResourceOwnerRecord[]>;
  /** The install link token of an integration, created (`fresh`) when it has none. */
  installLink(name: string, fresh: string, now?: number): Promise<string>;
  /** Replaces the install link token of an integration. */
  rotateInstallLink(name: string, fresh: string, now?: number): Promise<void>;
}

function toOrganization(row: Row): OrganizationRecord {
  return { id: str(row, 'id'), name: str(row, 'name'), createdAt: num(row, 'created_at') };
}

/** Builds the organizations repository on an adapter (or transaction handle). */
export function organizationsRepo(sql: Sql): OrganizationsRepo {
  return {
    async create({ id, name, now = Date.now() }) {
      const { changes } = await sql.run(
        'INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
        [id, name, now],
      );
      return changes > 0;
    },
    async ensure(id, name = id, now = Date.now()) {
      await sql.run(
        'INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
        [id, name, now],
      );
    },
    async get(id) {
      const row = await sql.get('SELECT id, name, created_at FROM organizations WHERE id = ?', [id]);
      return row ? toOrganization(row) : null;
    },
    async list() {
      return (await sql.all('SELECT id, name, created_at FROM organizations ORDER BY created_at, id')).map(
        toOrganization,
      );
    },
    async setOwner(kind, resourceId, organizationId, now = Date.now()) {
      await sql.run(
        `INSERT INTO resource_owners (kind, resource_id, organization_id, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (kind, resource_id) DO UPDATE SET organization_id = excluded.organization_id, updated_at = excluded.updated_at`,
        [kind, resourceId, organizationId, now],
      );
    },
    async removeOwner(kind, resourceId) {
      const { changes } = await sql.run('DELETE FROM resource_owners WHERE kind = ? AND resource_id = ?', [
        kind,
        resourceId,
      ]);
      return changes > 0;
    },
    async ownerOf(kind, resourceId) {
      const row = await sql.get(
        'SELECT organization_id FROM resource_owners WHERE kind = ? AND resource_id = ?',
        [kind, resourceId],
      );
      return row ? strOrNull(row, 'organization_id') : null;
    },
    async ownedBy(organizationId) {
      const rows = await sql.all(
        'SELECT kind, resource_id, organization_id, updated_at FROM resource_owners WHERE organization_id = ? ORDER BY kind, resource_id',
        [organizationId],
      );
      return rows.map((row) => ({
        kind: str(row, 'kind') as 'space' | 'site',
        resourceId: str(row, 'resource_id'),
        organizationId: str(row, 'organization_id'),
        updatedAt: num(row, 'updated_at'),
      }));
    },
    async installLink(name, fresh, now = Date.now()) {
      await sql.run(
        'INSERT INTO install_links (name, link, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
        [name, fresh, now],
      );
      const row = await sql.get('SELECT link FROM install_links WHERE name = ?', [name]);
      return row ? str(row, 'link') : fresh;
    },
    async rotateInstallLink(name, fresh, now = Date.now()) {
      await sql.run(
        `INSERT INTO install_links (name, link, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET link = excluded.link, updated_at = excluded.updated_at`,
        [name, fresh, now],
      );
    },
  };
}
