import { concatBytes, fromHex, type RawBody, rawBodyBytes, toHex, utf8 } from './bytes.js';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { parseSignatureHeader, SIGNATURE_HEADER } from './header.js';

/** Default accepted age of `t`, in seconds, in both directions (clock skew). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Options of {@link sign}. */
export interface SignOptions {
  /** Unix seconds to sign with. Default: now. */
  timestamp?: number;
}

/** Options of {@link verify}. */
export interface VerifyOptions {
  /** Largest accepted distance between `t` and now, in seconds, past or future. Default 300. */
  tolerance?: number;
  /** Clock in milliseconds (like `Date.now`). Default `Date.now`. */
  now?: () => number;
}

/** What a successful {@link verify} learned. */
export interface VerifiedSignature {
  /** `t` of the header: unix seconds at which the host signed the request. */
  timestamp: number;
}

/** Checks and normalises the `secrets` argument: one secret, or several during a rotation. */
export function normalizeSecrets(secrets: string | readonly string[]): string[] {
  const list = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? [...secrets] : null;
  if (list === null || list.length === 0) {
    throw new WebhookConfigurationError(
      'No webhook secret was given: pass the secret shown when the webhook was installed (whsec_...), or an array of secrets during a rotation.',
    );
  }
  list.forEach((secret, i) => {
    if (typeof secret !== 'string' || secret === '') {
      throw new WebhookConfigurationError(
        `Webhook secret #${i + 1} is empty or not a string: every secret must be a non-empty string such as "whsec_...".`,
      );
    }
  });
  return list;
}

/** How many imported HMAC keys are kept (per process): a host signs for many installations. */
export const KEY_CACHE_SIZE = 256;
const keyCache = new Map<string, Promise<CryptoKey>>();

/**
 * The HMAC-SHA256 key of a secret, imported once and cached (least recently used evicted): importing
 * on every call was a visible share of a busy host's CPU. Keys are non-extractable; a failed import is
 * not cached.
 */
function importKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const cacheKey = `${usage}:${secret}`;
  const cached = keyCache.get(cacheKey);
  if (cached) {
    keyCache.delete(cacheKey); // re-inserted: most recently used last
    keyCache.set(cacheKey, cached);
    return cached;
  }
  const key = crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
  keyCache.set(cacheKey, key);
  if (keyCache.size > KEY_CACHE_SIZE) {
    const oldest = keyCache.keys().next();
    if (!oldest.done) keyCache.delete(oldest.value);
  }
  void key.catch(() => {
    if (keyCache.get(cacheKey) === key) keyCache.delete(cacheKey);
  });
  return key;
}

/** HMAC-SHA256 of `message` under `secret` (the secret string as UTF-8), as lowercase hex. */
type HmacHex = (secret: string, message: Uint8Array<ArrayBuffer>) => string | Promise<string>;

interface NodeCryptoHmac {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): { update(data: Uint8Array): { digest(encoding: 'hex'): string } };
}

/** Web Crypto: every runtime (Node, workerd, Deno, Bun, browsers). Asynchronous (a thread-pool job in Node). */
const webCryptoHmacHex: HmacHex = async (secret, message) =>
  toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await importKey(secret, 'sign'), message)));

/**
 * node:crypto's synchronous HMAC, where the runtime hands it out without an import
 * (`process.getBuiltinModule`, Node >= 20.16): a busy sender (the host signs every attempt) saves
 * the thread-pool round trip of Web Crypto. The same bytes either way (tested).
 */
const nodeHmacHex: HmacHex | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.('node:crypto') as Partial<NodeCryptoHmac> | undefined;
  const createHmac = mod?.createHmac;
  if (typeof createHmac !== 'function') return undefined;
  return (secret: string, message: Uint8Array<ArrayBuffer>) =>
    createHmac('sha256', secret).update(message).digest('hex');
})();

/** Both implementations, for tests (`node` is undefined outside Node). */
export const hmacImplementations = { node: nodeHmacHex, webCrypto: webCryptoHmacHex } as const;

function signedMessage(timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes([utf8(`${timestamp}.`), body]);
}

/**
 * Signs a body the way the host does and returns the `X-Platform-Signature` value
 * `t=<ts>,v1=<hex>[,v1=<hex>]`, one `v1` per secret in the given order. The HMAC-SHA256 key is the
 * whole secret string as UTF-8; the message is `${t}.` followed by the raw body bytes.
 *
 * @example
 * const header = await sign(JSON.stringify(event), 'whsec_abc', { timestamp: 1700000000 });
 * // 't=1700000000,v1=...'
 */
export async function sign(
  body: string | Uint8Array,
  secrets: string | readonly string[],
  options: SignOptions = {},
): Promise<string> {
  const keys = normalizeSecrets(secrets);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookConfigurationError(
      `sign(): timestamp must be a non-negative integer of unix seconds, got ${timestamp}.`,
    );
  }
  const message = signedMessage(timestamp, rawBodyBytes(body));
  const hmacHex = nodeHmacHex ?? webCryptoHmacHex;
  const parts = [`t=${timestamp}`];
  for (const secret of keys) parts.push(`v1=${await hmacHex(secret, message)}`);
  return parts.join(',');
}

/** Checks a tolerance option; exported for the receiver helpers. */
export function checkTolerance(tolerance: number): number {
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new WebhookConfigurationError(
      `tolerance must be a number of seconds >= 0, got ${String(tolerance)}.`,
    );
  }
  return tolerance;
}

/**
 * Verifies a webhook: the raw body, the `X-Platform-Signature` header and your secret(s). Resolves
 * with the signed timestamp, or rejects with a {@link WebhookVerificationError} whose `code` is
 * `missing_signature`, `malformed_signature`, `signature_mismatch`, `timestamp_out_of_tolerance`
 * or `invalid_body` (an already-parsed object instead of the raw body). Every `v1` is compared with
 * every secret's digest in constant time (Web Crypto `verify`); any match is enough. The signature
 * is checked before the age, so `timestamp_out_of_tolerance` means "genuine but too old/new".
 *
 * @example
 * const { timestamp } = await verify(await request.text(), request.headers.get('x-platform-signature'), env.WEBHOOK_SECRET);
 */
export async function verify(
  body: RawBody,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<VerifiedSignature> {
  const keys = normalizeSecrets(secrets);
  const tolerance = checkTolerance(options.tolerance ?? DEFAULT_TOLERANCE_SECONDS);
  const bytes = rawBodyBytes(body);
  const parsed = parseSignatureHeader(header);
  const message = signedMessage(parsed.timestamp, bytes);
  // The header parser already checked each digest is 64 hex characters.
  const candidates = parsed.signatures.flatMap((digest) => fromHex(digest) ?? []);

  let matched = false;
  for (const secret of keys) {
    const key = await importKey(secret, 'verify');
    for (const candidate of candidates) {
      // Web Crypto compares in constant time; keep looping anyway so timing does not reveal which matched.
      if (await crypto.subtle.verify('HMAC', key, candidate, message)) matched = true;
    }
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      `No ${SIGNATURE_HEADER} signature matches the body with the configured secret${keys.length > 1 ? 's' : ''}. ` +
        'Check that the secret is the one of this webhook and that the body is verified exactly as received (no re-serialised JSON).',
    );
  }

  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const age = nowSeconds - parsed.timestamp;
  if (Math.abs(age) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp is ${Math.abs(age)} s in the ${age > 0 ? 'past' : 'future'}, more than the ${tolerance} s tolerance: ` +
        'the request may be replayed, or this server clock is wrong (check NTP).',
    );
  }
  return { timestamp: parsed.timestamp };
}
