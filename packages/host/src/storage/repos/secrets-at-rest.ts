import {
  configurationNeedsReseal,
  isSecretsError,
  openConfiguration,
  reveal,
  SECRET_CONFIGURATION_KEYS,
  type SecretBox,
  SecretsError,
  sealConfiguration,
} from '../../secrets/index.js';
import { json, str, strOrNull } from '../rows.js';
import type { Sql } from '../sql.js';
import { SECRET_SETTINGS } from './settings.js';

/** The setting that pins a database to one key: a known text sealed with the key of the host that first started on it. */
export const KEY_CHECK_SETTING = 'secrets_key_check';
const KEY_CHECK_TEXT = 'platform secrets key check';

/** How many stored values one {@link SecretsAtRestRepo.reseal} wrote, per place. */
export interface ResealReport {
  /** The key everything is now sealed with. */
  keyId: string;
  webhookSecrets: number;
  /** ed25519 private keys of installations signing with `ed25519`. */
  webhookSigningKeys: number;
  /** Endpoints' write-only values (custom header values, auth secrets). */
  webhookCredentials: number;
  integrations: number;
  installations: number;
  settings: number;
  /** Queued or kept set-up events (`invoke` jobs) whose configuration carries a secret. */
  jobs: number;
}

/**
 * Every secret the host stores, brought under the current key (src/secrets/README.md): plaintext from
 * before encryption at rest is sealed (the upgrade), and values sealed under an old key are re-sealed
 * (the rotation). The host runs it at every start, before serving; with nothing to do it only reads.
 *
 * @example
 * const report = await storage.secretsAtRest.reseal();
 * // { keyId: 'Xk3…', webhookSecrets: 2, integrations: 5, installations: 0, settings: 1 }
 */
export interface SecretsAtRestRepo {
  /**
   * Checks the key first: `SecretsError('unknown_key')` when the database was sealed with a key this
   * host does not hold (another host's, or a lost one), before anything is written. Each row is
   * rewritten only if it still holds what was read (a concurrent write wins). When something was
   * rewritten, the old bytes are scrubbed from the database's own files: SQLite `VACUUM` and a truncating
   * WAL checkpoint, PostgreSQL `VACUUM FULL` of the tables written (call it on the storage, not in a
   * transaction).
   */
  reseal(now?: number): Promise<ResealReport>;
}

/** Builds the repository on an adapter (or transaction handle). */
export function secretsAtRestRepo(sql: Sql, box: SecretBox): SecretsAtRestRepo {
  return {
    async reseal(now = Date.now()) {
      const report: ResealReport = {
        keyId: box.currentKeyId,
        webhookSecrets: 0,
        integrations: 0,
        webhookSigningKeys: 0,
        webhookCredentials: 0,
        installations: 0,
        settings: 0,
        jobs: 0,
      };
      if (!box.currentKeyId) return report; // opened without a key: stores plaintext, nothing to seal
      await checkKey(sql, box, now);
      const again = (value: string) => box.seal(reveal(box, value));

      /** Reseals a table's pair of sealed columns by installation (the second nullable); rows rewritten. */
      const resealPair = async (table: string, column: string, previousColumn: string) => {
        let rewritten = 0;
        for (const row of await sql.all(
          `SELECT installation_id, ${column}, ${previousColumn} FROM ${table}`,
        )) {
          const current = str(row, column);
          const previous = strOrNull(row, previousColumn);
          if (!box.needsReseal(current) && (previous === null || !box.needsReseal(previous))) continue;
          const { changes } = await sql.run(
            `UPDATE ${table} SET ${column} = ?, ${previousColumn} = ?
              WHERE installation_id = ? AND ${column} = ? AND ${previousColumn} IS NOT DISTINCT FROM ?`,
            [
              again(current),
              previous === null ? null : again(previous),
              str(row, 'installation_id'),
              current,
              previous,
            ],
          );
          rewritten += changes;
        }
        return rewritten;
      };
      report.webhookSecrets += await resealPair('webhook_secrets', 'current_secret', 'previous_secret');
      report.webhookSigningKeys += await resealPair(
        'webhook_signing_keys',
        'private_key',
        'previous_private_key',
      );

      for (const row of await sql.all('SELECT installation_id, credentials FROM webhook_credentials')) {
        const stored = str(row, 'credentials');
        if (!box.needsReseal(stored)) continue;
        const { changes } = await sql.run(
          'UPDATE webhook_credentials SET credentials = ? WHERE installation_id = ? AND credentials = ?',
          [again(stored), str(row, 'installation_id'), stored],
        );
        report.webhookCredentials += changes;
      }

      for (const row of await sql.all('SELECT name, version, signing_secret, secrets FROM integrations')) {
        const signing = str(row, 'signing_secret');
        const secrets = str(row, 'secrets');
        if (!box.needsReseal(signing) && !box.needsReseal(secrets)) continue;
        const { changes } = await sql.run(
          `UPDATE integrations SET signing_secret = ?, secrets = ?
            WHERE name = ? AND version = ? AND signing_secret = ? AND secrets = ?`,
          [again(signing), again(secrets), str(row, 'name'), str(row, 'version'), signing, secrets],
        );
        report.integrations += changes;
      }

      for (const row of await sql.all('SELECT id, configuration FROM installations')) {
        const stored = json<Record<string, unknown>>(row, 'configuration');
        if (!configurationNeedsReseal(box, stored)) continue;
        const sealed = sealConfiguration(box, openConfiguration(box, stored));
        const { changes } = await sql.run(
          'UPDATE installations SET configuration = ? WHERE id = ? AND configuration = ?',
          [JSON.stringify(sealed), str(row, 'id'), str(row, 'configuration')],
        );
        report.installations += changes;
      }

      for (const key of [...SECRET_SETTINGS, KEY_CHECK_SETTING]) {
        const row = await sql.get('SELECT value FROM settings WHERE key = ?', [key]);
        if (!row || !box.needsReseal(str(row, 'value'))) continue;
        const value = str(row, 'value');
        const { changes } = await sql.run(
          'UPDATE settings SET value = ?, updated_at = ? WHERE key = ? AND value = ?',
          [again(value), now, key, value],
        );
        if (key !== KEY_CHECK_SETTING) report.settings += changes;
      }
      // A set-up event carries its installation's configuration (services/dispatch.ts): those written
      // before are found where an installation had a secret to seal, or when keys rotate (old keys given).
      if (report.installations > 0 || box.keyIds.length > 1) report.jobs = await resealSetupEvents(sql, box);
      await scrub(sql, report);
      return report;
    },
  };
}

/** Seals the secrets in the configuration of `invoke` jobs' set-up events (plaintext, or under an old key). */
async function resealSetupEvents(sql: Sql, box: SecretBox): Promise<number> {
  const likes = SECRET_CONFIGURATION_KEYS.map(() => 'payload LIKE ?').join(' OR ');
  const rows = await sql.all(
    `SELECT id, payload FROM jobs WHERE kind = 'invoke' AND (${likes})`,
    SECRET_CONFIGURATION_KEYS.map((key) => `%"${key}"%`),
  );
  let written = 0;
  for (const row of rows) {
    const payload = json<{ event?: { configuration?: unknown } }>(row, 'payload');
    const configuration = payload.event?.configuration;
    if (!configuration || typeof configuration !== 'object' || Array.isArray(configuration)) continue;
    const stored = configuration as Record<string, unknown>;
    if (!configurationNeedsReseal(box, stored)) continue;
    const event = { ...payload.event, configuration: sealConfiguration(box, openConfiguration(box, stored)) };
    const { changes } = await sql.run('UPDATE jobs SET payload = ? WHERE id = ? AND payload = ?', [
      JSON.stringify({ ...payload, event }),
      str(row, 'id'),
      str(row, 'payload'),
    ]);
    written += changes;
  }
  return written;
}

/**
 * Rewrites the database's files so the plaintext (or old-key) values just replaced are not left in free
 * pages, the SQLite WAL, or PostgreSQL's dead row versions. Only after a reseal that wrote something (an
 * upgrade, a rotation): never on an ordinary start.
 */
async function scrub(sql: Sql, report: ResealReport): Promise<void> {
  const tables = (
    [
      ['webhook_secrets', report.webhookSecrets],
      ['webhook_signing_keys', report.webhookSigningKeys],
      ['webhook_credentials', report.webhookCredentials],
      ['integrations', report.integrations],
      ['installations', report.installations],
      ['settings', report.settings],
    ] as const
  )
    .filter(([, changes]) => changes > 0)
    .map(([table]) => table);
  // jobs: SQLite's VACUUM rewrites it with the rest; on PostgreSQL a VACUUM FULL of the queue would lock
  // it for as long as it copies, so its old row versions are left to autovacuum and retention.
  if (tables.length === 0 && !(sql.dialect === 'sqlite' && report.jobs > 0)) return;
  if (sql.dialect === 'sqlite') await sql.exec('VACUUM; PRAGMA wal_checkpoint(TRUNCATE);');
  else if (tables.length > 0) await sql.exec(`VACUUM FULL ${tables.join(', ')}`);
}

/**
 * Pins the database to one key (the first host's) and refuses another: two hosts on one PostgreSQL
 * database with different keys would each seal what the other cannot open.
 */
async function checkKey(sql: Sql, box: SecretBox, now: number): Promise<void> {
  await sql.run(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
    [KEY_CHECK_SETTING, box.seal(KEY_CHECK_TEXT), now],
  );
  const row = await sql.get('SELECT value FROM settings WHERE key = ?', [KEY_CHECK_SETTING]);
  const stored = row ? str(row, 'value') : '';
  try {
    if (box.open(stored) === KEY_CHECK_TEXT) return;
  } catch (error) {
    if (!isSecretsError(error)) throw error;
  }
  const keyId = stored.split(':')[2] ?? '?';
  throw new SecretsError(
    'unknown_key',
    `this database's secrets are sealed with key ${keyId}, but this host's secrets key is ${box.currentKeyId} (and its old keys do not include ${keyId}). ` +
      "Every host on one database needs the same key: set PLATFORM_SECRETS_KEY to the key the other hosts use (the first host's data folder holds it in secrets-key), " +
      'or, when rotating, put the previous key in PLATFORM_SECRETS_OLD_KEYS (docs/operations.md "Secrets key").',
  );
}
