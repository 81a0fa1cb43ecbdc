import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretsError } from './errors.js';

/** What every sealed value starts with; the version names the algorithm (AES-256-GCM, 12-byte IV, 16-byte tag). */
export const SEALED_PREFIX = 'enc:v1:';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Opened values a box remembers (by sealed text) before it starts again. */
const OPENED_CACHE_SIZE = 1024;

/**
 * The keys a host holds, as plain data (it crosses to the delivery thread in `workerData`): `current`
 * seals, `current` and every `old` key open. Each is 32 bytes, base64url.
 *
 * @example
 * const ring: KeyRing = { current: 'q3J…43 chars', old: ['Zx0…'] };
 */
export interface KeyRing {
  current: string;
  old?: readonly string[];
}

/**
 * Seals and opens the secrets the host stores (docs/security.md "Secrets at rest"). `seal` is
 * AES-256-GCM under the current key with a fresh random IV; the result is
 * `enc:v1:<keyId>:<iv b64url>:<ciphertext+tag b64url>`, the prefix and key id authenticated too.
 *
 * @example
 * const box = createSecretBox({ current: generateKey() });
 * const sealed = box.seal('whsec_abc'); // 'enc:v1:Xk3…:…:…'
 * box.open(sealed); // 'whsec_abc'
 */
export interface SecretBox {
  /** The id of the key `seal` uses (8 characters, derived from the key; not secret). */
  readonly currentKeyId: string;
  /** The ids of every key that opens (the current one first, then the old ones). */
  readonly keyIds: readonly string[];
  /** Encrypts a plaintext under the current key. */
  seal(plaintext: string): string;
  /** Decrypts a sealed value. Throws `SecretsError` (`unknown_key`, `tampered`, `malformed`). */
  open(sealed: string): string;
  /** Whether a stored value is sealed (else it is plaintext from before encryption at rest). */
  isSealed(value: string): boolean;
  /** Whether a stored value should be rewritten: plaintext, or sealed under a key other than the current one. */
  needsReseal(value: string): boolean;
}

/** A new random key: 32 bytes, base64url (what `PLATFORM_SECRETS_KEY` and the key file hold). */
export function generateKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

/**
 * The 32 bytes of a key written as base64, base64url or 64 hex digits; `SecretsError('invalid_key')`
 * naming `where` otherwise.
 *
 * @example
 * parseKey(generateKey(), 'PLATFORM_SECRETS_KEY').length; // 32
 */
export function parseKey(text: string, where: string): Buffer {
  const value = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)
      ? Buffer.from(value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), 'base64url')
      : null;
  if (!bytes || bytes.length !== KEY_BYTES) {
    throw new SecretsError(
      'invalid_key',
      `${where} is not a secrets key: it must be 32 random bytes written as base64 (43 or 44 characters) or hex (64 digits); generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\`.`,
    );
  }
  return bytes;
}

/** The id of a key: the first 6 bytes of a SHA-256 of it, base64url (8 characters; reveals nothing usable). */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256')
    .update('platform-secrets-key-id\0')
    .update(key)
    .digest()
    .subarray(0, 6)
    .toString('base64url');
}

/**
 * A {@link SecretBox} over a key ring. Keys are validated here (`SecretsError('invalid_key')`).
 *
 * @example
 * const box = createSecretBox({ current: process.env.PLATFORM_SECRETS_KEY! });
 */
export function createSecretBox(ring: KeyRing): SecretBox {
  const current = parseKey(ring.current, 'the current secrets key');
  const currentKeyId = keyIdOf(current);
  const keys = new Map<string, Buffer>([[currentKeyId, current]]);
  for (const [i, text] of (ring.old ?? []).entries()) {
    const key = parseKey(text, `old secrets key #${i + 1}`);
    if (!keys.has(keyIdOf(key))) keys.set(keyIdOf(key), key);
  }
  const currentHeader = `${SEALED_PREFIX}${currentKeyId}:`;
  // Opened values by their sealed text: the same few secrets are read again and again (an integration's
  // for each invocation, an installation's at each routing change), and a sealed text opens to one value.
  const opened = new Map<string, string>();
  return {
    currentKeyId,
    keyIds: [...keys.keys()],
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(currentHeader, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${currentHeader}${iv.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      const plaintext = decrypt(keys, sealed);
      if (opened.size >= OPENED_CACHE_SIZE) opened.clear();
      opened.set(sealed, plaintext);
      return plaintext;
    },
    isSealed: (value) => value.startsWith(SEALED_PREFIX),
    needsReseal: (value) => !value.startsWith(currentHeader),
  };
}

/** Opens one sealed value with the key its id names (the work behind `SecretBox.open`). */
function decrypt(keys: ReadonlyMap<string, Buffer>, sealed: string): string {
  const parts = sealed.slice(SEALED_PREFIX.length).split(':');
  if (!sealed.startsWith(SEALED_PREFIX) || parts.length !== 3) {
    throw new SecretsError(
      'malformed',
      'a stored secret is not of the form enc:v1:<keyId>:<iv>:<ciphertext>',
    );
  }
  const [keyId, ivText, bodyText] = parts as [string, string, string];
  const key = keys.get(keyId);
  if (!key) {
    throw new SecretsError(
      'unknown_key',
      `a stored secret is sealed with key ${keyId}, which this host was not given (its keys: ${[...keys.keys()].join(', ')}); set PLATFORM_SECRETS_KEY to that key, or add it to PLATFORM_SECRETS_OLD_KEYS (docs/operations.md "Secrets key").`,
    );
  }
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) {
    throw new SecretsError('malformed', `a stored secret sealed with key ${keyId} is truncated`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(`${SEALED_PREFIX}${keyId}:`, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SecretsError(
      'tampered',
      `a stored secret sealed with key ${keyId} does not decrypt: it was altered, or the key given under that id is another one`,
    );
  }
}

/**
 * The box of a storage opened without keys (storage tests, tools): it stores values as given and refuses
 * to open a sealed one, naming the key it needs. The host always opens its storage with a key ring.
 *
 * @example
 * NO_KEY_BOX.seal('x'); // 'x'
 */
export const NO_KEY_BOX: SecretBox = {
  currentKeyId: '',
  keyIds: [],
  seal: (plaintext) => plaintext,
  open(sealed) {
    const keyId = sealed.slice(SEALED_PREFIX.length).split(':')[0] ?? '';
    throw new SecretsError(
      'unknown_key',
      `a stored secret is sealed with key ${keyId}, but the storage was opened without a secrets key; pass \`secrets: { current: <key> }\` to openStorage (the host reads PLATFORM_SECRETS_KEY or its data folder's secrets-key file)`,
    );
  },
  isSealed: (value) => value.startsWith(SEALED_PREFIX),
  needsReseal: () => false,
};

/**
 * A stored value in clear: opened when sealed, as is when it is plaintext written before encryption at
 * rest (or by an older host during a rolling upgrade; the next start seals it).
 *
 * @example
 * reveal(box, row.current_secret); // 'whsec_…'
 */
export function reveal(box: SecretBox, stored: string): string {
  return box.isSealed(stored) ? box.open(stored) : stored;
}
