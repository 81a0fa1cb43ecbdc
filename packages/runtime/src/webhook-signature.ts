import { fromBase64, fromHex, toBytes } from '@platform/webhooks/bytes';
import { type HmacAlgorithm, hmacKey, hmacVerify } from './hmac';

/**
 * How a third party signs its webhooks: HMAC of the raw body, sent in a header.
 *
 * @example
 * // GitHub: X-Hub-Signature-256: sha256=<hex>
 * const github: WebhookSignatureOptions = { secret, header: 'x-hub-signature-256', prefix: 'sha256=' };
 * // Shopify: X-Shopify-Hmac-Sha256: <base64>
 * const shopify: WebhookSignatureOptions = { secret, header: 'x-shopify-hmac-sha256', encoding: 'base64' };
 */
export interface WebhookSignatureOptions {
  /** Shared secret(s) as UTF-8 strings; several are accepted during a rotation. */
  secret: string | readonly string[];
  /** Header carrying the signature when verifying a `Request`; `x-signature` by default. */
  header?: string;
  /** The signature value itself (instead of reading `header`), e.g. when verifying bytes. */
  signature?: string | null;
  /** Encoding of the digest: `hex` (default) or `base64` (standard or url-safe). */
  encoding?: 'hex' | 'base64';
  /** Text before the digest, e.g. `sha256=`; removed before decoding. */
  prefix?: string;
  /** Hash function: `SHA-256` by default. */
  algorithm?: HmacAlgorithm;
}

/**
 * Verifies a third-party HMAC webhook signature over the raw body (docs/contracts.md "Integration definition"): pass
 * the request (its body is read from a clone) or the `fetch-body` bytes. The digest
 * is checked in constant time; a missing or undecodable signature is `false`.
 *
 * @example
 * if (!(await verifyWebhookSignature(request, { secret: env.secrets.WEBHOOK_SECRET, header: 'x-hub-signature-256', prefix: 'sha256=' }))) {
 *   return new Response('bad signature', { status: 401 });
 * }
 */
export async function verifyWebhookSignature(
  input: Request | ArrayBuffer | Uint8Array | string,
  options: WebhookSignatureOptions,
): Promise<boolean> {
  const isRequest = typeof input === 'object' && input !== null && 'headers' in input && 'clone' in input;
  const headerValue =
    options.signature ?? (isRequest ? input.headers.get(options.header ?? 'x-signature') : null);
  if (!headerValue) return false;
  let value = headerValue.trim();
  const prefix = options.prefix ?? '';
  if (prefix) {
    if (!value.startsWith(prefix)) return false;
    value = value.slice(prefix.length);
  }
  const signature = options.encoding === 'base64' ? fromBase64(value) : fromHex(value);
  if (!signature || signature.length === 0) return false;
  const body = isRequest ? new Uint8Array(await input.clone().arrayBuffer()) : toBytes(input);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  let ok = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const key = await hmacKey(secret, options.algorithm ?? 'SHA-256');
    if (await hmacVerify(key, signature, body)) ok = true;
  }
  return ok;
}
