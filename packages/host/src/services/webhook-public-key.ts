import { generateSigningKeyPair, type SignatureScheme } from '@platform/webhooks';
import { signingSettingsOf } from '../delivery/signature/index.js';
import { HttpError } from '../errors.js';
import type { HostContext } from './context.js';
import { ROTATION_OVERLAP_MS, requireWebhookInstallation } from './webhooks.js';

// The ed25519 public key of a webhook installation through the API (read, rotate); the key pair is made by
// signing-keys.ts when the scheme becomes ed25519. docs/contracts.md "Signature schemes of webhook installations".

/** What `GET /v1/installations/{id}/webhook-public-key` answers. */
export interface WebhookPublicKeyView {
  algorithm: 'ed25519';
  /** `whpk_<base64 of the 32-byte key>`, the Standard Webhooks spelling. */
  publicKey: string;
  /** The installation's signature scheme now (the key verifies `v1a` only while it is `ed25519`). */
  scheme: SignatureScheme;
  createdAt: string;
  /** During a rotation: the previous public key, which still signs (a second `v1a` entry) until `expiresAt`. */
  previous?: { publicKey: string; expiresAt: string };
}

/**
 * The installation's ed25519 public key; 404 `not_found` (saying how to make one) when it never signed
 * with `ed25519`.
 *
 * @example
 * const { publicKey } = await webhookPublicKey(ctx, 'inst_1'); // 'whpk_…'
 */
export async function webhookPublicKey(ctx: HostContext, id: string): Promise<WebhookPublicKeyView> {
  const record = await requireWebhookInstallation(ctx, id);
  const key = await ctx.storage.webhookSigningKeys.publicKey(id, Date.now());
  if (!key) {
    throw new HttpError(
      404,
      'not_found',
      `Installation "${id}" has no ed25519 public key: one is made when its signature_scheme becomes ed25519 ` +
        `(PATCH /v1/installations/${id} with {"configuration":{"signature_scheme":"ed25519"}}, or the dashboard's installation page).`,
    );
  }
  return {
    algorithm: 'ed25519',
    publicKey: key.publicKey,
    scheme: signingSettingsOf(record.configuration).scheme,
    createdAt: new Date(key.createdAt).toISOString(),
    ...(key.previous
      ? {
          previous: {
            publicKey: key.previous.publicKey,
            expiresAt: new Date(key.previous.expiresAt).toISOString(),
          },
        }
      : {}),
  };
}

/**
 * Rotates the installation's ed25519 key pair: a new pair signs from now on, the previous one too (a second
 * `v1a` entry) for {@link ROTATION_OVERLAP_MS}, as a secret rotation does; receivers switch to the new
 * public key meanwhile. 404 when it has no pair (it never signed with `ed25519`).
 *
 * @example
 * const { publicKey, previous } = await rotateSigningKey(ctx, 'inst_1');
 */
export async function rotateSigningKey(
  ctx: HostContext,
  id: string,
  now = Date.now(),
): Promise<WebhookPublicKeyView> {
  await webhookPublicKey(ctx, id); // 404 (saying how to make one) when there is none
  await ctx.storage.webhookSigningKeys.rotate(id, await generateSigningKeyPair(), ROTATION_OVERLAP_MS, now);
  return webhookPublicKey(ctx, id);
}
