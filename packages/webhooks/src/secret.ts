import { toBase64Url } from './bytes.js';

/**
 * A new webhook secret: `whsec_` followed by 32 random bytes (Web Crypto) in unpadded base64url —
 * 49 characters. The host calls it per webhook installation; tests may use it too.
 *
 * @example
 * const secret = generateSecret(); // 'whsec_Xk3...'
 */
export function generateSecret(): string {
  return `whsec_${toBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
}
