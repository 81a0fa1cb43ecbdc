import { fromHex, toHex } from './encoding';
import { hmacKey, hmacSign, hmacVerify, prefixed } from './hmac';

/** Accepted clock difference for `t`, both ways, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Verifies an `X-Platform-Signature: t=<unix s>,v1=<hex>[,v1=<hex>]` header over raw
 * body bytes (docs/contracts.md): message `${t}.${body}`, key the secret as UTF-8,
 * `t` within 300 s of `nowSeconds`, any `v1` matching (constant time).
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
  if (!header) return false;
  let t: string | undefined;
  const digests: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return false;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') t = value;
    else if (name === 'v1') digests.push(value);
  }
  if (!t || !/^\d+$/.test(t) || digests.length === 0) return false;
  if (Math.abs(nowSeconds - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const key = await hmacKey(secret);
  const message = prefixed(`${t}.`, body);
  let ok = false;
  for (const digest of digests) {
    const bytes = /^[0-9a-f]{64}$/.test(digest) ? fromHex(digest) : undefined;
    if (bytes && (await hmacVerify(key, bytes, message))) ok = true;
  }
  return ok;
}

/**
 * Builds an `X-Platform-Signature` value (what the host sends); handy in tests.
 * @example const header = await signPlatformBody(bytes, 'whsec_x');
 */
export async function signPlatformBody(
  body: Uint8Array,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const mac = await hmacSign(await hmacKey(secret), prefixed(`${nowSeconds}.`, body));
  return `t=${nowSeconds},v1=${toHex(mac)}`;
}
