// Byte helpers built on Web APIs only (TextEncoder, Uint8Array, btoa), so the core runs in Node,
// workerd, Deno and Bun without `Buffer`.
import { WebhookVerificationError } from './errors.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Concatenates byte arrays into a fresh buffer. */
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

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Bytes of a hex string of even length (either case); the caller validated the characters. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Unpadded base64url of bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
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
