import { reveal, type SecretBox } from '../../secrets/index.js';
import type { Row, Sql } from '../sql.js';

/**
 * The write-only values of webhook endpoints (their custom headers' values and their auth's password, token
 * or client secret): THE one place they are stored (table `webhook_credentials`, migration 16), apart from
 * the configuration, which holds them masked. The delivery engine reads them with the target
 * (`webhookSecrets.deliveryTarget`); nothing else reads them. Written only together with an update of the
 * installation (same transaction), so the routing epoch moves on with them.
 *
 * @example
 * await tx.webhookCredentials.set('inst_1', { headers: { 'X-Api-Key': 'k1' }, auth: 'p4ss' });
 * await storage.webhookCredentials.get('inst_1'); // { headers: { 'X-Api-Key': 'k1' }, auth: 'p4ss' }
 * await tx.webhookCredentials.set('inst_1', null); // none any more
 */
export interface WebhookCredentialsRepo {
  /** The stored values, or null. */
  get(installationId: string): Promise<StoredCredentials | null>;
  /** Replaces the stored values (null: deletes them). */
  set(installationId: string, credentials: StoredCredentials | null, now?: number): Promise<void>;
}

/** What is stored per endpoint: header name → value, and the auth's secret. */
export interface StoredCredentials {
  headers?: Record<string, string>;
  auth?: string;
}

/**
 * The credentials of a row's `credentials` column (null: none, or no row). The column holds them sealed
 * with the secrets key (src/secrets/README.md), or in plaintext if written without one.
 */
export function credentialsOf(row: Row, box: SecretBox, column = 'credentials'): StoredCredentials | null {
  const value = row[column];
  if (typeof value !== 'string' || value === '') return null;
  return JSON.parse(reveal(box, value)) as StoredCredentials;
}

/** Builds the webhook credentials repository on an adapter (or transaction handle). */
export function webhookCredentialsRepo(sql: Sql, box: SecretBox): WebhookCredentialsRepo {
  return {
    async get(installationId) {
      const row = await sql.get('SELECT credentials FROM webhook_credentials WHERE installation_id = ?', [
        installationId,
      ]);
      return row ? credentialsOf(row, box) : null;
    },

    async set(installationId, credentials, now = Date.now()) {
      if (credentials === null) {
        await sql.run('DELETE FROM webhook_credentials WHERE installation_id = ?', [installationId]);
        return;
      }
      await sql.run(
        `INSERT INTO webhook_credentials (installation_id, credentials, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (installation_id) DO UPDATE SET credentials = excluded.credentials, updated_at = excluded.updated_at`,
        [installationId, box.seal(JSON.stringify(credentials)), now],
      );
    },
  };
}
