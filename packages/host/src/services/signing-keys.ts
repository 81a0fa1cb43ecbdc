import { generateSigningKeyPair } from '@platform/webhooks';
import { signingSettingsOf } from '../delivery/signature/index.js';
import type { StorageTx } from '../storage/index.js';

/**
 * Makes the installation's ed25519 key pair when its configuration signs with `ed25519` and it has none
 * yet (in the transaction that saves the configuration, so no delivery finds the scheme without its key).
 * A pair, once made, is kept: switching schemes back and forth does not change the public key.
 *
 * @example
 * await ctx.storage.transaction((tx) => ensureSigningKey(tx, 'inst_1', { signature_scheme: 'ed25519' }));
 */
export async function ensureSigningKey(
  tx: StorageTx,
  installationId: string,
  configuration: Record<string, unknown>,
  now = Date.now(),
): Promise<void> {
  if (signingSettingsOf(configuration).scheme !== 'ed25519') return;
  if (await tx.webhookSigningKeys.publicKey(installationId)) return;
  await tx.webhookSigningKeys.ensure(installationId, await generateSigningKeyPair(), now);
}
