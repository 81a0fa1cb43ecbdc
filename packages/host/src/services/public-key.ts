import type { SignatureScheme } from '@platform/webhooks';
import { HttpError } from '../errors.js';
import { signingSettingsOf } from '../signing/index.js';
import type { HostContext } from './context.js';
import { requireWebhookInstallation } from './webhooks.js';

// Apart from signing-keys.ts (which installations.ts imports) so that reading a key, which needs
// webhooks.ts, makes no import cycle (installations -> signing-keys -> webhooks -> installations).

/** What `GET /v1/installations/{id}/webhook-public-key` answers. */
export interface WebhookPublicKeyView {
  algorithm: 'ed25519';
  /** `whpk_<base64 of the 32-byte key>`, the Standard Webhooks spelling. */
  publicKey: string;
  /** The installation's signature scheme now (the key verifies `v1a` only while it is `ed25519`). */
  scheme: SignatureScheme;
  createdAt: string;
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
  const key = await ctx.storage.webhookSigningKeys.publicKey(id);
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
  };
}
