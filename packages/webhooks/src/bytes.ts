// The project's one set of byte helpers, built on Web APIs only (TextEncoder, Uint8Array, btoa,
// atob), so they run in Node, workerd, Deno, Bun and browsers without `Buffer`. The webhook code
// here and the integration SDK (@platform/runtime, through '@platform/webhooks/bytes') use them.
import { WebhookVerificationError } from './errors.js';

const encoder = new TextEncoder();

/**
 * UTF-8 bytes of a string.
 * @example utf8('é').length; // 2
 */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/**
 * Concatenates byte arrays into a fresh buffer.
 * @example concatBytes([utf8('a'), utf8('b')]); // bytes of 'ab'
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * Lowercase hex of bytes.
 * @example toHex(new Uint8Array([255, 1])); // 'ff01'
 */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * Bytes of a hex string (either case), or undefined when it is not hex of even length.
 * @example fromHex('ff01'); // Uint8Array [255, 1]
 */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Unpadded base64url of bytes.
 * @example toBase64Url(utf8('hi')); // 'aGk'
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Padded standard base64 of bytes (RFC 4648 section 4), the spelling Standard Webhooks uses.
 * @example toBase64(utf8('hi')); // 'aGk='
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Bytes of base64 or base64url (padding optional), or undefined when invalid.
 * @example fromBase64('aGk='); // bytes of 'hi'
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const normal = text.replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(normal) || normal.length % 4 === 1) return undefined;
  try {
    const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * A fresh copy of a body as bytes (a string as UTF-8).
 * @example toBytes('text'); // bytes of 'text'
 */
export function toBytes(body: ArrayBuffer | Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return utf8(body);
  return new Uint8Array(body);
}

/** The body types {@link verify} accepts: the raw request body, exactly as received. */
export type RawBody = string | Uint8Array | ArrayBuffer;

const RAW_BODY_HINT =
  'Pass the raw request body exactly as received (a string, Uint8Array/Buffer or ArrayBuffer). ' +
  "With Express use express.raw({ type: 'application/json' }) on the webhook route instead of express.json(); " +
  'with fetch-style handlers use await request.text() or request.arrayBuffer().';

/**
 * The bytes of a raw body. Refuses anything else, in particular an object a JSON body parser already
 * produced: re-serialising it would not give back the signed bytes.
 */
export function rawBodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return utf8(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body === undefined || body === null) {
    throw new WebhookVerificationError(
      'invalid_body',
      `The request body is missing (got ${body}). ${RAW_BODY_HINT}`,
    );
  }
  const what = typeof body === 'object' ? 'an already-parsed object' : `a ${typeof body}`;
  throw new WebhookVerificationError(
    'invalid_body',
    `The webhook body was ${what}, but only the raw body can be verified: parsing and re-serialising JSON changes the signed bytes. ${RAW_BODY_HINT}`,
  );
}
