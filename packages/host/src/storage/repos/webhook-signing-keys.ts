import type { SecretBox } from '../../secrets/index.js';
import { num, str } from '../rows.js';
import type { Sql } from '../sql.js';

/**
 * The ed25519 key pair of a webhook installation that signs with the `ed25519` scheme (migration 15). The
 * private key (`whsk_…`) is a secret: this table is the one place it is stored, sealed with the secrets
 * key (src/secrets/README.md), and only deliveries read it (`webhookSecrets.deliveryTarget`); the API shows
 * the public key (`whpk_…`) alone.
 *
 * @example
 * await storage.webhookSigningKeys.ensure(inst.id, await generateSigningKeyPair(), Date.now());
 * (await storage.webhookSigningKeys.publicKey(inst.id))?.publicKey; // 'whpk_…'
 */
export interface WebhookSigningKeysRepo {
  /**
   * Stores the pair unless the installation already has one (a key pair is kept once made: receivers
   * hold its public key). Returns the pair in force. Foreign-key error if the installation does not exist.
   */
  ensure(
    installationId: string,
    pair: { privateKey: string; publicKey: string },
    now: number,
  ): Promise<{ publicKey: string; createdAt: number }>;
  /** The installation's public key and when it was made, or null when it has none. */
  publicKey(installationId: string): Promise<{ publicKey: string; createdAt: number } | null>;
}

/** Builds the signing keys repository on an adapter (or transaction handle). */
export function webhookSigningKeysRepo(sql: Sql, box: SecretBox): WebhookSigningKeysRepo {
  const read = async (installationId: string) => {
    const row = await sql.get(
      'SELECT public_key, created_at FROM webhook_signing_keys WHERE installation_id = ?',
      [installationId],
    );
    return row ? { publicKey: str(row, 'public_key'), createdAt: num(row, 'created_at') } : null;
  };
  return {
    async ensure(installationId, pair, now) {
      await sql.run(
        `INSERT INTO webhook_signing_keys (installation_id, private_key, public_key, created_at)
         VALUES (?, ?, ?, ?) ON CONFLICT (installation_id) DO NOTHING`,
        [installationId, box.seal(pair.privateKey), pair.publicKey, now],
      );
      const kept = await read(installationId);
      if (!kept) throw new Error(`the signing key of ${installationId} was not stored`);
      return kept;
    },
    publicKey: read,
  };
}
