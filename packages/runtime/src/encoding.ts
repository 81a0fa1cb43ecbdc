/** Internal byte helpers built on web standards only (no Buffer), for workerd and Node. */

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. @example utf8('é').length; // 2 */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Concatenates byte arrays. @example concatBytes(utf8('a'), utf8('b')); */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Lowercase hex of bytes. @example toHex(new Uint8Array([255])); // 'ff' */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Bytes of a hex string, or undefined when it is not hex. @example fromHex('ff'); */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** base64url (no padding) of bytes. @example toBase64Url(utf8('hi')); // 'aGk' */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of base64 or base64url (padding optional), or undefined when invalid. @example fromBase64('aGk='); */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
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

/** Bytes of any body form. @example await toBytes('text'); */
export function toBytes(body: ArrayBuffer | Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return utf8(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return new Uint8Array(body);
}
