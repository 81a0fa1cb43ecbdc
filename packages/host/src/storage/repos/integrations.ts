import { reveal, type SecretBox } from '../../secrets/index.js';
import { StorageError } from '../errors.js';
import { bool, json, num, rowMapper, str } from '../rows.js';
import type { Row, Sql } from '../sql.js';
import type { IntegrationRecord } from '../types.js';

/** What `publish` takes: a record, `createdAt` defaulting to now. */
export type PublishInput = Omit<IntegrationRecord, 'createdAt'> & { createdAt?: number };

/**
 * Published integration versions. "Latest" = the most recently published version of a name.
 *
 * @example
 * await storage.integrations.publish({ name: 'hello', version: '1.0.0', ... });
 * const current = await storage.integrations.getLatest('hello');
 */
export interface IntegrationsRepo {
  /**
   * Stores a new version. Re-publishing an existing (name, version) replaces it only when the new record
   * has `devMode: true`; otherwise throws `StorageError('conflict')`. The published version becomes latest.
   */
  publish(input: PublishInput): Promise<IntegrationRecord>;
  getLatest(name: string): Promise<IntegrationRecord | null>;
  getVersion(name: string, version: string): Promise<IntegrationRecord | null>;
  /** The latest version of every integration, by name. */
  list(): Promise<IntegrationRecord[]>;
  /** Every stored version of one integration, newest publish first. */
  listVersions(name: string): Promise<IntegrationRecord[]>;
  /** Deletes every version of `name` (unpublish); returns how many there were (0: unknown name). */
  remove(name: string): Promise<number>;
}

/** An integration version without its bundle and secrets. Its `manifest` is shared between readers and frozen. */
export type IntegrationMeta = Pick<
  IntegrationRecord,
  'name' | 'version' | 'title' | 'manifest' | 'firstParty' | 'devMode' | 'createdAt'
>;

const COLUMNS =
  'name, version, title, manifest, bundle, bundle_hash, envelope_version, signing_secret, secrets, first_party, dev_mode, publish_seq, created_at, assets';
export const META_COLUMNS = 'name, version, title, manifest, first_party, dev_mode, created_at';

/** Parsed manifests of `toMeta`, by their JSON text (`installations.routes` reads them for every group of events). */
const MANIFEST_CACHE_SIZE = 64;
const manifests = new Map<string, IntegrationRecord['manifest']>();

/**
 * The manifest of a row, parsed once per distinct text and frozen (it is shared by every reader):
 * `POST /v1/events` reads the routing metadata of the same few integrations all the time, and parsing
 * their manifests was a visible share of its CPU.
 */
function cachedManifest(row: Row): IntegrationRecord['manifest'] {
  const text = str(row, 'manifest');
  const cached = manifests.get(text);
  if (cached) return cached;
  const manifest = deepFreeze(json<IntegrationRecord['manifest']>(row, 'manifest'));
  if (manifests.size >= MANIFEST_CACHE_SIZE) {
    const oldest = manifests.keys().next();
    if (!oldest.done) manifests.delete(oldest.value);
  }
  manifests.set(text, manifest);
  return manifest;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** An integration version's routing metadata from a row with `META_COLUMNS` (also under other names, via `installations.routes`). */
export const toMeta = rowMapper<IntegrationMeta>({
  name: str,
  version: str,
  title: str,
  manifest: cachedManifest,
  firstParty: bool,
  devMode: bool,
  createdAt: num,
});

/** A full record: its signing secret and secrets opened (both sealed at rest, src/secrets/README.md). */
function recordOf(row: Row, box: SecretBox): IntegrationRecord {
  return {
    name: str(row, 'name'),
    version: str(row, 'version'),
    title: str(row, 'title'),
    manifest: json(row, 'manifest'),
    bundle: str(row, 'bundle'),
    bundleHash: str(row, 'bundle_hash'),
    envelopeVersion: str(row, 'envelope_version') as 'v1',
    signingSecret: reveal(box, str(row, 'signing_secret')),
    secrets: JSON.parse(reveal(box, str(row, 'secrets'))) as IntegrationRecord['secrets'],
    firstParty: bool(row, 'first_party'),
    devMode: bool(row, 'dev_mode'),
    assets: json(row, 'assets'),
    createdAt: num(row, 'created_at'),
  };
}

/** Builds the integrations repository on an adapter (or transaction handle). */
export function integrationsRepo(sql: Sql, box: SecretBox): IntegrationsRepo {
  const toRecord = (row: Row) => recordOf(row, box);
  return {
    publish: (input) =>
      sql.transaction(async (tx) => {
        const record: IntegrationRecord = {
          ...input,
          assets: input.assets ?? {},
          createdAt: input.createdAt ?? Date.now(),
        };
        const existing = await tx.get('SELECT dev_mode FROM integrations WHERE name = ? AND version = ?', [
          record.name,
          record.version,
        ]);
        if (existing && !record.devMode) {
          throw new StorageError(
            'conflict',
            `integration ${record.name} version ${record.version} is already published; bump the version (or publish in dev mode to replace it)`,
          );
        }
        const seqRow = await tx.get('SELECT MAX(publish_seq) AS seq FROM integrations WHERE name = ?', [
          record.name,
        ]);
        const seq = (seqRow && seqRow.seq !== null && seqRow.seq !== undefined ? num(seqRow, 'seq') : 0) + 1;
        const values = [
          record.title,
          JSON.stringify(record.manifest),
          record.bundle,
          record.bundleHash,
          record.envelopeVersion,
          box.seal(record.signingSecret),
          box.seal(JSON.stringify(record.secrets)),
          record.firstParty,
          record.devMode,
          seq,
          record.createdAt,
          JSON.stringify(record.assets ?? {}),
        ];
        if (existing) {
          await tx.run(
            `UPDATE integrations SET title = ?, manifest = ?, bundle = ?, bundle_hash = ?, envelope_version = ?,
               signing_secret = ?, secrets = ?, first_party = ?, dev_mode = ?, publish_seq = ?, created_at = ?,
               assets = ?
             WHERE name = ? AND version = ?`,
            [...values, record.name, record.version],
          );
        } else {
          await tx.run(
            `INSERT INTO integrations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [record.name, record.version, ...values],
          );
        }
        return record;
      }),

    async getLatest(name) {
      const row = await sql.get(
        `SELECT ${COLUMNS} FROM integrations WHERE name = ? ORDER BY publish_seq DESC LIMIT 1`,
        [name],
      );
      return row ? toRecord(row) : null;
    },

    async getVersion(name, version) {
      const row = await sql.get(`SELECT ${COLUMNS} FROM integrations WHERE name = ? AND version = ?`, [
        name,
        version,
      ]);
      return row ? toRecord(row) : null;
    },

    async list() {
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM integrations i
         WHERE publish_seq = (SELECT MAX(publish_seq) FROM integrations j WHERE j.name = i.name)
         ORDER BY name`,
      );
      return rows.map(toRecord);
    },

    async listVersions(name) {
      const rows = await sql.all(
        `SELECT ${COLUMNS} FROM integrations WHERE name = ? ORDER BY publish_seq DESC`,
        [name],
      );
      return rows.map(toRecord);
    },

    async remove(name) {
      const { changes } = await sql.run('DELETE FROM integrations WHERE name = ?', [name]);
      return changes;
    },
  };
}
