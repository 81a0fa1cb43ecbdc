import { type SignatureScheme, sign, signStandard } from '@platform/webhooks';

/**
 * How one installation's deliveries are signed (docs/contracts.md "Signature schemes"): its scheme, and
 * whether both header sets go out during a migration. Absent: `platform` alone, today's bytes.
 */
export interface DeliverySigning {
  scheme: SignatureScheme;
  /**
   * With `standard-webhooks` or `ed25519`: also send `X-Platform-Signature` (receivers that still check it
   * keep working while they move to the new scheme).
   */
  bothHeaders: boolean;
  /** `ed25519`: the installation's private key(s) (`whsk_…`), one `v1a,` signature each. */
  privateKeys: readonly string[];
}

/** What signing one attempt needs besides the settings. */
export interface SignInput {
  bytes: Buffer;
  secrets: readonly string[];
  eventId: string;
  /** Unix seconds, the same in every header of the attempt. */
  timestamp: number;
}

/**
 * The signature headers of one attempt, by scheme (lowercase names, in sending order):
 * `platform` → `x-platform-signature`; `standard-webhooks` → `webhook-id` (the event id, stable across
 * retries and redeliveries), `webhook-timestamp`, `webhook-signature: v1,<base64>` per active secret;
 * `ed25519` → the same with `v1a,<base64>` per private key. `bothHeaders` adds `x-platform-signature` to
 * the last two. Throws when a secret or key is unusable (the sender records `signing_error`).
 *
 * @example
 * await signatureHeaders({ scheme: 'standard-webhooks', bothHeaders: false, privateKeys: [] },
 *   { bytes, secrets: ['whsec_…'], eventId: 'evt_1', timestamp: 1700000000 });
 * // { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,…' }
 */
export async function signatureHeaders(
  signing: DeliverySigning,
  input: SignInput,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (signing.scheme === 'platform' || signing.bothHeaders) {
    headers['x-platform-signature'] = await sign(input.bytes, input.secrets, { timestamp: input.timestamp });
  }
  if (signing.scheme === 'platform') return headers;
  const standard = await signStandard(input.bytes, {
    id: input.eventId,
    timestamp: input.timestamp,
    ...(signing.scheme === 'ed25519' ? { privateKeys: signing.privateKeys } : { secrets: input.secrets }),
  });
  return { ...headers, ...standard };
}
