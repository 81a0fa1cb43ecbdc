import { utf8 } from '@platform/webhooks/bytes';

/** Hash functions accepted for HMAC. @example const a: HmacAlgorithm = 'SHA-256'; */
export type HmacAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-512';

/** Imports a secret string (UTF-8) as an HMAC key. @example const key = await hmacKey('s3cret'); */
export function hmacKey(secret: string, algorithm: HmacAlgorithm = 'SHA-256'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: algorithm }, false, [
    'sign',
    'verify',
  ]);
}

/** HMAC of a message. @example const mac = await hmacSign(key, utf8('msg')); */
export async function hmacSign(
  key: CryptoKey,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}

/**
 * Constant-time check of an HMAC (crypto.subtle.verify compares in constant time).
 * @example await hmacVerify(key, mac, utf8('msg')); // true
 */
export function hmacVerify(
  key: CryptoKey,
  signature: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  return crypto.subtle.verify('HMAC', key, signature, message);
}
