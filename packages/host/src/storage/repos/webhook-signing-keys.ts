import { reveal, type SecretBox } from '../../secrets/index.js';
import { StorageError } from '../errors.js';
import { num, numOrNull, str, strOrNull } from '../rows.js';
import type { Row, Sql } from '../sql.js';

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
  /**
   * The installation's public key, when it was made and, during a rotation, the previous public key still
   * valid at `now` with its expiry; null when it has none.
   */
  publicKey(installationId: string, now?: number): Promise<SigningPublicKeys | null>;
  /**
   * Makes `pair` current; the current pair keeps signing (a second `v1a` entry) until now + overlapMs.
   * `not_found` when the installation has no pair to rotate.
   */
  rotate(
    installationId: string,
    pair: { privateKey: string; publicKey: string },
    overlapMs: number,
    now: number,
  ): Promise<void>;
}

/** What `webhookSigningKeys.publicKey` reads. */
export interface SigningPublicKeys {
  publicKey: string;
  createdAt: number;
  /** The previous public key while it still signs (a rotation's overlap). */
  previous?: { publicKey: string; expiresAt: number };
}

/**
 * The private keys of a `webhook_signing_keys` row valid at `now`, current first, opened, and until when
 * that list holds (the previous key's expiry when it is in it, else null); no row (LEFT JOIN): none.
 */
export function validSigningKeys(
  row: Row,
  now: number,
  box: SecretBox,
): { keys: string[]; validUntil: number | null } {
  const current = strOrNull(row, 'private_key');
  if (current === null) return { keys: [], validUntil: null };
  const previous = strOrNull(row, 'previous_private_key');
  const expiresAt = numOrNull(row, 'previous_expires_at');
  // Both columns are sealed at rest (src/secrets/README.md); an expired previous key is not even opened.
  return previous !== null && expiresAt !== null && expiresAt > now
    ? { keys: [reveal(box, current), reveal(box, previous)], validUntil: expiresAt }
    : { keys: [reveal(box, current)], validUntil: null };
}

/** Builds the signing keys repository on an adapter (or transaction handle). */
export function webhookSigningKeysRepo(sql: Sql, box: SecretBox): WebhookSigningKeysRepo {
  const read = async (installationId: string, now = Date.now()): Promise<SigningPublicKeys | null> => {
    const row = await sql.get(
      `SELECT public_key, created_at, previous_public_key, previous_expires_at
         FROM webhook_signing_keys WHERE installation_id = ?`,
      [installationId],
    );
    if (!row) return null;
    const previous = strOrNull(row, 'previous_public_key');
    const expiresAt = numOrNull(row, 'previous_expires_at');
    return {
      publicKey: str(row, 'public_key'),
      createdAt: num(row, 'created_at'),
      ...(previous !== null && expiresAt !== null && expiresAt > now
        ? { previous: { publicKey: previous, expiresAt } }
        : {}),
    };
  };
  return {
    async ensure(installationId, pair, now) {
      await sql.run(
        `INSERT INTO webhook_signing_keys (installation_id, private_key, public_key, created_at)
         VALUES (?, ?, ?, ?) ON CONFLICT (installation_id) DO NOTHING`,
        [installationId, box.seal(pair.privateKey), pair.publicKey, now],
      );
      const kept = await read(installationId, now);
      if (!kept) throw new Error(`the signing key of ${installationId} was not stored`);
      return { publicKey: kept.publicKey, createdAt: kept.createdAt };
    },
    publicKey: read,
    async rotate(installationId, pair, overlapMs, now) {
      const { changes } = await sql.run(
        `UPDATE webhook_signing_keys SET previous_private_key = private_key, previous_public_key = public_key,
           previous_expires_at = ?, private_key = ?, public_key = ?, created_at = ?
         WHERE installation_id = ?`,
        [now + overlapMs, box.seal(pair.privateKey), pair.publicKey, now, installationId],
      );
      if (changes === 0) {
        throw new StorageError(
          'not_found',
          `installation ${installationId} has no ed25519 key pair to rotate`,
        );
      }
    },
  };
}
