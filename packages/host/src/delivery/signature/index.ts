/**
 * Signature schemes of webhook installations (docs/contracts.md "Signature schemes"): the settings read
 * from an installation's configuration and their rules, pure. Signing itself is `delivery/signing.ts`;
 * the key pairs are stored by `storage.webhookSigningKeys` and made by `services/signing-keys.ts`.
 *
 * @example
 * import { signingRules, signingSettingsOf } from '../delivery/signature/index.js';
 * signingSettingsOf(installation.configuration).scheme; // 'platform'
 */
export {
  deliverySigningOf,
  SIGNING_KEYS,
  type SigningSettings,
  signingRules,
  signingSettingsOf,
} from './settings.js';
