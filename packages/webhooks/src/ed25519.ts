// ed25519 keys of the Standard Webhooks `v1a` scheme: a private key `whsk_<base64 of the 32-byte seed>`
// (the host's, never shown) and its public key `whpk_<base64 of the 32-byte raw key>` (given to receivers).
// Web Crypto everywhere; node:crypto's synchronous signing where the runtime hands it out.
import { concatBytes, fromBase64, toBase64 } from './bytes.js';
import { WebhookConfigurationError } from './errors.js';

/** Prefix of an ed25519 private (signing) key. */
export const PRIVATE_KEY_PREFIX = 'whsk_';
/** Prefix of an ed25519 public (verifying) key. */
export const PUBLIC_KEY_PREFIX = 'whpk_';

/** PKCS #8 header of an Ed25519 private key (RFC 8410): the 32-byte seed follows it. */
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

/** An ed25519 key pair in Standard Webhooks spelling. */
export interface SigningKeyPair {
  /** `whsk_<base64 seed>`: signs; keep it secret (the host stores it, never shows it). */
  privateKey: string;
  /** `whpk_<base64 raw key>`: verifies; give it to receivers. */
  publicKey: string;
}

function keyBytes(key: string, prefix: string, what: string): Uint8Array<ArrayBuffer> {
  const bytes =
    typeof key === 'string' && key.startsWith(prefix) ? fromBase64(key.slice(prefix.length)) : undefined;
  if (bytes === undefined || bytes.length !== 32) {
    throw new WebhookConfigurationError(
      `The ${what} is not a ${prefix}… key: expected "${prefix}" followed by the base64 of 32 bytes (as the host shows it).`,
    );
  }
  return bytes;
}

/** PKCS #8 DER of a `whsk_` key. @throws {WebhookConfigurationError} when it is not one. */
export function privateKeyDer(privateKey: string): Uint8Array<ArrayBuffer> {
  return concatBytes([PKCS8_PREFIX, keyBytes(privateKey, PRIVATE_KEY_PREFIX, 'ed25519 private key')]);
}

/** The 32 raw bytes of a `whpk_` key. @throws {WebhookConfigurationError} when it is not one. */
export function publicKeyBytes(publicKey: string): Uint8Array<ArrayBuffer> {
  return keyBytes(publicKey, PUBLIC_KEY_PREFIX, 'ed25519 public key');
}

/**
 * A new ed25519 key pair (Web Crypto). The host makes one per installation that signs with `ed25519`.
 *
 * @example
 * const { privateKey, publicKey } = await generateSigningKeyPair(); // 'whsk_…', 'whpk_…'
 */
export async function generateSigningKeyPair(): Promise<SigningKeyPair> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return {
    privateKey: `${PRIVATE_KEY_PREFIX}${toBase64(pkcs8.subarray(PKCS8_PREFIX.length))}`,
    publicKey: `${PUBLIC_KEY_PREFIX}${toBase64(raw)}`,
  };
}

/**
 * The public key of a private key.
 *
 * @example
 * await publicKeyOf(pair.privateKey) === pair.publicKey; // true
 */
export async function publicKeyOf(privateKey: string): Promise<string> {
  const key = await crypto.subtle.importKey('pkcs8', privateKeyDer(privateKey), { name: 'Ed25519' }, true, [
    'sign',
  ]);
  // A private CryptoKey exports as JWK with its public half in `x` (base64url).
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const raw = fromBase64(jwk.x ?? '');
  if (raw === undefined) throw new WebhookConfigurationError('The ed25519 private key has no public half.');
  return `${PUBLIC_KEY_PREFIX}${toBase64(raw)}`;
}

/** Signs `message` with a `whsk_` key: the 64-byte signature. */
type Ed25519Sign = (privateKey: string, message: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;

/** How many imported keys are kept (per process), like the HMAC keys. */
const KEY_CACHE_SIZE = 256;

/** A small least-recently-used cache of imported keys; a failed import is not kept. */
function keyCache<K>(load: (key: string) => K): (key: string) => K {
  const cache = new Map<string, K>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const loaded = load(key);
    cache.set(key, loaded);
    if (cache.size > KEY_CACHE_SIZE) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    if (loaded instanceof Promise) {
      loaded.catch(() => {
        if (cache.get(key) === loaded) cache.delete(key);
      });
    }
    return loaded;
  };
}

const webSigningKey = keyCache((privateKey) =>
  crypto.subtle.importKey('pkcs8', privateKeyDer(privateKey), { name: 'Ed25519' }, false, ['sign']),
);
const webVerifyingKey = keyCache((publicKey) =>
  crypto.subtle.importKey('raw', publicKeyBytes(publicKey), { name: 'Ed25519' }, false, ['verify']),
);

const webCryptoSign: Ed25519Sign = async (privateKey, message) =>
  new Uint8Array(await crypto.subtle.sign('Ed25519', await webSigningKey(privateKey), message));

interface NodeCryptoEd25519 {
  createPrivateKey(options: { key: Uint8Array; format: 'der'; type: 'pkcs8' }): unknown;
  sign(algorithm: null, data: Uint8Array, key: unknown): Uint8Array;
}

/** node:crypto's synchronous signing (Node >= 20.16 hands the module out without an import). */
const nodeSign: Ed25519Sign | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.('node:crypto') as Partial<NodeCryptoEd25519> | undefined;
  const { createPrivateKey, sign } = mod ?? {};
  if (typeof createPrivateKey !== 'function' || typeof sign !== 'function') return undefined;
  const nodeKey = keyCache((privateKey) =>
    createPrivateKey({ key: privateKeyDer(privateKey), format: 'der', type: 'pkcs8' }),
  );
  return (privateKey, message) => sign(null, message, nodeKey(privateKey));
})();

/** Both implementations, for tests (`node` is undefined outside Node). */
export const ed25519Implementations = { node: nodeSign, webCrypto: webCryptoSign } as const;

/** Signs `message` with a `whsk_` key: node:crypto where available, else Web Crypto. */
export function ed25519Sign(
  privateKey: string,
  message: Uint8Array<ArrayBuffer>,
): Uint8Array | Promise<Uint8Array> {
  return (nodeSign ?? webCryptoSign)(privateKey, message);
}

/** Whether `signature` is the ed25519 signature of `message` under a `whpk_` key (Web Crypto). */
export async function ed25519Verify(
  publicKey: string,
  signature: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  return crypto.subtle.verify('Ed25519', await webVerifyingKey(publicKey), signature, message);
}
