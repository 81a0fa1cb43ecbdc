import { openConfiguration, reveal, type SecretBox } from '../../secrets/index.js';

import { StorageError } from '../errors.js';
import { json, numOrNull, strOrNull } from '../rows.js';
import type { Row, Sql } from '../sql.js';
import { epochOf, ROUTING_EPOCH } from './routing-epoch.js';
import { credentialsOf, type StoredCredentials } from './webhook-credentials.js';
import { validSigningKeys } from './webhook-signing-keys.js';

/**
 * Webhook signing secrets per installation: the current one and, during a rotation, the previous one
 * until it expires.
 *
 * @example
 * await storage.webhookSecrets.set(inst.id, 'whsec_a');
 * await storage.webhookSecrets.rotate(inst.id, 'whsec_b', 24 * 3600_000, Date.now());
 * await storage.webhookSecrets.active(inst.id, Date.now()); // ['whsec_b', 'whsec_a']
 */
export interface WebhookSecretsRepo {
  /** Sets the current secret and forgets any previous one. `not_found` if the installation does not exist. */
  set(installationId: string, secret: string, now?: number): Promise<void>;
  /** Makes `newSecret` current; the old current stays valid until now + overlapMs. `not_found` if none is set. */
  rotate(installationId: string, newSecret: string, overlapMs: number, now: number): Promise<void>;
  /** Secrets valid at `now`, current first (empty when none is set). */
  active(installationId: string, now: number): Promise<string[]>;
  /**
   * Where a delivery of the installation goes and how it is signed, in one read: the installation's
   * configuration (its `url`), the secrets valid at `now` (as `active`), until when that list holds
   * (`validUntil`: the previous secret's expiry when it is in the list, else null) and the routing epoch
   * of the read (`installations.routes`); null if the installation does not exist.
   *
   * @example
   * const target = await storage.webhookSecrets.deliveryTarget(inst.id, Date.now());
   * // { configuration: { url: 'https://example.com/hook', ... }, secrets: ['whsec_b'], validUntil: null, epoch: 7, signingKeys: [] }
   */
  deliveryTarget(installationId: string, now: number): Promise<DeliveryTargetRead | null>;
}

/** What `webhookSecrets.deliveryTarget` read. */
export interface DeliveryTargetRead {
  configuration: Record<string, unknown>;
  /** Valid at the read's `now`, current first. */
  secrets: string[];
  /** When `secrets` stops being the valid list (the previous secret expires); null: not before a change. */
  validUntil: number | null;
  /** The routing epoch the read saw: any change of the installation or its secrets moves it on. */
  epoch: number;
  /**
   * The installation's ed25519 private keys valid at the read's `now` (`whsk_…`, repos/webhook-signing-keys.ts),
   * current first, two during a rotation; empty: none made. `validUntil` covers their list too.
   */
  signingKeys: string[];
  /** The endpoint's write-only values (`webhookCredentials`), or null. */
  credentials: StoredCredentials | null;
}

/**
 * The secrets of a `webhook_secrets` row valid at `now`, current first (none: no row), opened: both
 * columns are sealed at rest (src/secrets/README.md); an expired previous secret is not even opened.
 */
function validSecrets(row: Row, now: number, box: SecretBox): string[] {
  const current = strOrNull(row, 'current_secret');
  if (current === null) return [];
  const secrets = [reveal(box, current)];
  const previous = strOrNull(row, 'previous_secret');
  const expiresAt = numOrNull(row, 'previous_expires_at');
  if (previous !== null && expiresAt !== null && expiresAt > now) secrets.push(reveal(box, previous));
  return secrets;
}

/** Builds the webhook secrets repository on an adapter (or transaction handle). */
export function webhookSecretsRepo(sql: Sql, box: SecretBox): WebhookSecretsRepo {
  return {
    async set(installationId, secret, now = Date.now()) {
      await sql.run(
        `INSERT INTO webhook_secrets (installation_id, current_secret, previous_secret, previous_expires_at, updated_at)
         VALUES (?, ?, NULL, NULL, ?)
         ON CONFLICT (installation_id) DO UPDATE SET current_secret = excluded.current_secret,
           previous_secret = NULL, previous_expires_at = NULL, updated_at = excluded.updated_at`,
        [installationId, box.seal(secret), now],
      );
    },

    async rotate(installationId, newSecret, overlapMs, now) {
      const { changes } = await sql.run(
        `UPDATE webhook_secrets SET previous_secret = current_secret, previous_expires_at = ?, current_secret = ?,
           updated_at = ? WHERE installation_id = ?`,
        [now + overlapMs, box.seal(newSecret), now, installationId],
      );
      if (changes === 0) {
        throw new StorageError(
          'not_found',
          `installation ${installationId} has no webhook secret to rotate; set one first`,
        );
      }
    },

    async active(installationId, now) {
      const row = await sql.get(
        'SELECT current_secret, previous_secret, previous_expires_at FROM webhook_secrets WHERE installation_id = ?',
        [installationId],
      );
      return row ? validSecrets(row, now, box) : [];
    },

    async deliveryTarget(installationId, now) {
      const row = await sql.get(
        `SELECT i.configuration, s.current_secret, s.previous_secret, s.previous_expires_at,
                k.private_key, k.previous_private_key, k.previous_expires_at AS previous_key_expires_at,
                c.credentials, ${ROUTING_EPOCH} AS routing_epoch
           FROM installations i LEFT JOIN webhook_secrets s ON s.installation_id = i.id
           LEFT JOIN webhook_signing_keys k ON k.installation_id = i.id
           LEFT JOIN webhook_credentials c ON c.installation_id = i.id
          WHERE i.id = ?`,
        [installationId],
      );
      if (!row) return null;
      const secrets = validSecrets(row, now, box);
      const keys = validSigningKeys({ ...row, previous_expires_at: row.previous_key_expires_at }, now, box);
      const secretsUntil = secrets.length > 1 ? numOrNull(row, 'previous_expires_at') : null;
      const until = [secretsUntil, keys.validUntil].filter((t): t is number => t !== null);
      return {
        configuration: openConfiguration(box, json(row, 'configuration')),
        secrets,
        validUntil: until.length ? Math.min(...until) : null,
        epoch: epochOf(row, 'routing_epoch'),
        signingKeys: keys.keys,
        credentials: credentialsOf(row, box),
      };
    },
  };
}
