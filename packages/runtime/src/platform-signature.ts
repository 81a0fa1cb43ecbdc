// The runtime's side of the `X-Platform-Signature` scheme (docs/contracts.md). The scheme itself
// (header format, message, 300 s tolerance, constant-time comparison) is implemented once, in
// @platform/webhooks, which the host signs with; these two functions only adapt it to the SDK.
import { sign, verify, WebhookVerificationError } from '@platform/webhooks';

/**
 * Verifies an `X-Platform-Signature: t=<unix s>,v1=<hex>[,v1=<hex>]` header over raw body bytes
 * with `@platform/webhooks`' `verify`: `true` when a `v1` matches and `t` is within the tolerance
 * (300 s) of `nowSeconds`, `false` for a missing, malformed, wrong or expired signature.
 *
 * @example
 * const ok = await verifyPlatformSignature(request.headers.get('x-platform-signature'), bytes, env.PLATFORM_SIGNING_SECRET);
 */
export async function verifyPlatformSignature(
  header: string | null,
  body: Uint8Array,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  try {
    await verify(body, header, secret, { now: () => nowSeconds * 1000 });
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

/**
 * Builds an `X-Platform-Signature` value (what the host sends), with `@platform/webhooks`' `sign`;
 * handy in tests.
 *
 * @example const header = await signPlatformBody(bytes, 'whsec_x');
 */
export function signPlatformBody(
  body: Uint8Array,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  return sign(body, secret, { timestamp: nowSeconds });
}
