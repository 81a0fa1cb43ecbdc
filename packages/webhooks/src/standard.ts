// Standard Webhooks (https://www.standardwebhooks.com): headers `webhook-id`, `webhook-timestamp` and
// `webhook-signature` ("v1,<base64 HMAC-SHA256>" and/or "v1a,<base64 ed25519>", space-separated), signed
// content `<id>.<timestamp>.<body>`. Pure apart from Web Crypto (node:crypto where it is faster).
import { concatBytes, fromBase64, type RawBody, rawBodyBytes, toBase64, utf8 } from './bytes.js';
import { ed25519Sign, ed25519Verify, publicKeyBytes } from './ed25519.js';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { checkTolerance, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions } from './signature.js';

/** The headers of the Standard Webhooks schemes (lowercase, as node exposes them). */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** The Standard Webhooks header values of one delivery attempt. */
// A type (not an interface) so that it passes as a `Record<string, string>` of headers.
export type StandardWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Prefix of a Standard Webhooks symmetric secret. */
const SECRET_PREFIX = 'whsec_';

/**
 * The key bytes of a `whsec_` secret: the base64 after the prefix, in either spelling (standard, as
 * Standard Webhooks shows it, or the unpadded base64url the host generates). The same installation secret
 * thus signs `platform` (its whole string as the HMAC key) and `standard-webhooks` (these bytes).
 *
 * @example
 * standardSecretKey(standardSecret(secret)); // the same 32 bytes as standardSecretKey(secret)
 * @throws {WebhookConfigurationError} when the secret is not `whsec_` followed by base64.
 */
export function standardSecretKey(secret: string): Uint8Array<ArrayBuffer> {
  const bytes =
    typeof secret === 'string' && secret.startsWith(SECRET_PREFIX)
      ? fromBase64(secret.slice(SECRET_PREFIX.length))
      : undefined;
  if (bytes === undefined || bytes.length === 0) {
    throw new WebhookConfigurationError(
      'The Standard Webhooks secret must be "whsec_" followed by base64 (as the host shows it for this scheme).',
    );
  }
  return bytes;
}

/**
 * The Standard Webhooks spelling (`whsec_<padded standard base64>`) of an installation secret: what
 * `new Webhook(secret)` of the `standardwebhooks` or `svix` packages takes.
 *
 * @example
 * standardSecret('whsec_ZGVtby1rZXktYnl0ZXM'); // 'whsec_ZGVtby1rZXktYnl0ZXM='
 */
export function standardSecret(secret: string): string {
  return `${SECRET_PREFIX}${toBase64(standardSecretKey(secret))}`;
}

/** Options of {@link signStandard}: the message id, and the secrets and/or private keys that sign. */
export interface StandardSignOptions {
  /** `webhook-id`: the message id, the same on every attempt (the host sends the event's `eventId`). */
  id: string;
  /** Unix seconds. Default: now. */
  timestamp?: number;
  /** `whsec_` secrets: one `v1,` signature each (two during a rotation). */
  secrets?: readonly string[];
  /** `whsk_` ed25519 private keys: one `v1a,` signature each. */
  privateKeys?: readonly string[];
}

/** HMAC-SHA256 keys of secrets' bytes, imported once (least recently used evicted). */
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const cacheKey = `${usage}:${secret}`;
  const hit = hmacKeys.get(cacheKey);
  if (hit) return hit;
  const key = crypto.subtle.importKey(
    'raw',
    standardSecretKey(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage],
  );
  if (hmacKeys.size >= 256) hmacKeys.delete(hmacKeys.keys().next().value as string);
  hmacKeys.set(cacheKey, key);
  key.catch(() => hmacKeys.delete(cacheKey));
  return key;
}

interface NodeCryptoHmac {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
}

/**
 * node:crypto's synchronous HMAC where the runtime hands it out (as for `platform`, signature.ts): the host
 * signs every attempt, and Web Crypto's thread-pool round trip costs more than the HMAC of a small body.
 * Key bytes are decoded once per secret (bounded cache).
 */
const nodeStandardHmac: ((secret: string, content: Uint8Array) => Uint8Array) | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const createHmac = (proc?.getBuiltinModule?.('node:crypto') as Partial<NodeCryptoHmac> | undefined)
    ?.createHmac;
  if (typeof createHmac !== 'function') return undefined;
  const keys = new Map<string, Uint8Array>();
  return (secret, content) => {
    let key = keys.get(secret);
    if (key === undefined) {
      key = standardSecretKey(secret);
      if (keys.size >= 256) keys.delete(keys.keys().next().value as string);
      keys.set(secret, key);
    }
    return createHmac('sha256', key).update(content).digest();
  };
})();

function signedContent(id: string, timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes([utf8(`${id}.${timestamp}.`), body]);
}

function checkId(id: string): string {
  if (typeof id !== 'string' || id === '' || /[\s.]/.test(id)) {
    throw new WebhookConfigurationError(
      `signStandard(): id must be a non-empty string without spaces or periods, got ${JSON.stringify(id)}.`,
    );
  }
  return id;
}

/**
 * Signs a body the Standard Webhooks way and returns the three header values. `v1` entries (HMAC-SHA256
 * keyed with each secret's bytes) come first, then `v1a` entries (ed25519), space-separated.
 *
 * @example
 * const headers = await signStandard(body, { id: event.eventId, secrets: [secret] });
 * // { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,K5oZ…=' }
 */
export async function signStandard(
  body: string | Uint8Array,
  options: StandardSignOptions,
): Promise<StandardWebhookHeaders> {
  const id = checkId(options.id);
  const secrets = options.secrets ?? [];
  const privateKeys = options.privateKeys ?? [];
  if (secrets.length === 0 && privateKeys.length === 0) {
    throw new WebhookConfigurationError('signStandard(): give at least one secret or private key.');
  }
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookConfigurationError(
      `signStandard(): timestamp must be a non-negative integer of unix seconds, got ${timestamp}.`,
    );
  }
  const content = signedContent(id, timestamp, rawBodyBytes(body));
  const parts: string[] = [];
  for (const secret of secrets) {
    const mac = nodeStandardHmac
      ? nodeStandardHmac(secret, content)
      : new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), content));
    parts.push(`v1,${toBase64(mac)}`);
  }
  for (const key of privateKeys) parts.push(`v1a,${toBase64(await ed25519Sign(key, content))}`);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': parts.join(' '),
  };
}

/** Which key(s) {@link verifyStandard} checks with. */
export type StandardVerificationKeys =
  | { secret: string | readonly string[] }
  | { publicKey: string | readonly string[] };

/** What a successful {@link verifyStandard} learned. */
export interface VerifiedStandardSignature {
  /** `webhook-id`: deduplicate on it (the platform sends the event's `eventId`). */
  id: string;
  /** `webhook-timestamp`, unix seconds. */
  timestamp: number;
}

/** A header getter, or the headers as an object (node's `req.headers`, a plain record). */
export type HeaderSource =
  | ((name: string) => string | null | undefined)
  | Record<string, string | readonly string[] | undefined>;

function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers === 'function') return headers(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : value?.join(',');
  }
  return undefined;
}

const MAX_SIGNATURE_LENGTH = 8192;
const MAX_SIGNATURES = 16;

function listOf(value: string | readonly string[], what: string): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? [...value] : [];
  if (list.length === 0 || list.some((v) => typeof v !== 'string' || v === '')) {
    throw new WebhookConfigurationError(
      `No ${what} was given: pass the one the host shows for this webhook.`,
    );
  }
  return list;
}

/**
 * Verifies a Standard Webhooks delivery: `v1` with the `whsec_` secret(s), or `v1a` with the `whpk_`
 * ed25519 public key(s). Entries of the other version are skipped, so a header carrying both verifies
 * with either. The signature is checked before the age; any match is enough. Rejects with a
 * {@link WebhookVerificationError} (`missing_signature`, `malformed_signature`, `signature_mismatch`,
 * `timestamp_out_of_tolerance`, `invalid_body`).
 *
 * @example
 * const { id } = await verifyStandard(rawBody, req.headers, { secret: process.env.WEBHOOK_SECRET });
 * await verifyStandard(rawBody, (n) => request.headers.get(n), { publicKey: 'whpk_…' });
 */
export async function verifyStandard(
  body: RawBody,
  headers: HeaderSource,
  keys: StandardVerificationKeys,
  options: VerifyOptions = {},
): Promise<VerifiedStandardSignature> {
  const asymmetric = 'publicKey' in keys;
  const list = asymmetric
    ? listOf(keys.publicKey, 'ed25519 public key (whpk_…)')
    : listOf(keys.secret, 'secret (whsec_…)');
  // A key of the wrong form is the receiver's configuration, not the request: say so before anything else.
  for (const key of list) asymmetric ? publicKeyBytes(key) : standardSecretKey(key);
  const tolerance = checkTolerance(options.tolerance ?? DEFAULT_TOLERANCE_SECONDS);
  const bytes = rawBodyBytes(body);
  const id = headerOf(headers, STANDARD_WEBHOOK_HEADERS.id);
  const stamp = headerOf(headers, STANDARD_WEBHOOK_HEADERS.timestamp);
  const signature = headerOf(headers, STANDARD_WEBHOOK_HEADERS.signature);
  if (!id || !stamp || !signature) {
    const missing = [
      id ? null : STANDARD_WEBHOOK_HEADERS.id,
      stamp ? null : STANDARD_WEBHOOK_HEADERS.timestamp,
      signature ? null : STANDARD_WEBHOOK_HEADERS.signature,
    ].filter(Boolean);
    throw new WebhookVerificationError(
      'missing_signature',
      `The Standard Webhooks header${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing: this request was not signed with a Standard Webhooks scheme.`,
    );
  }
  if (!/^\d{1,15}$/.test(stamp.trim())) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'webhook-timestamp must be an integer number of unix seconds.',
    );
  }
  if (signature.length > MAX_SIGNATURE_LENGTH) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `webhook-signature is longer than ${MAX_SIGNATURE_LENGTH} characters.`,
    );
  }
  const version = asymmetric ? 'v1a' : 'v1';
  const candidates = signature
    .split(' ')
    .filter((entry) => entry.startsWith(`${version},`))
    .flatMap((entry) => fromBase64(entry.slice(version.length + 1)) ?? [])
    .slice(0, MAX_SIGNATURES);
  if (candidates.length === 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `webhook-signature holds no "${version},<base64>" entry: ${asymmetric ? 'this delivery is not signed with ed25519 (v1a)' : 'this delivery is not signed with an HMAC secret (v1)'}; check the installation's signature scheme.`,
    );
  }
  const timestamp = Number(stamp.trim());
  const content = signedContent(id, timestamp, bytes);
  let matched = false;
  for (const key of list) {
    for (const candidate of candidates) {
      // Keep looping after a match so that timing does not reveal which one matched.
      const ok = asymmetric
        ? await ed25519Verify(key, candidate, content)
        : await crypto.subtle.verify('HMAC', await hmacKey(key, 'verify'), candidate, content);
      if (ok) matched = true;
    }
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      `No ${version} entry of webhook-signature matches the body with the configured ${asymmetric ? 'public key' : 'secret'}${list.length > 1 ? 's' : ''}. ` +
        'Check that it is the one of this webhook and that the body is verified exactly as received (no re-serialised JSON).',
    );
  }
  const age = Math.floor((options.now ?? Date.now)() / 1000) - timestamp;
  if (Math.abs(age) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `webhook-timestamp is ${Math.abs(age)} s in the ${age > 0 ? 'past' : 'future'}, more than the ${tolerance} s tolerance: ` +
        'the request may be replayed, or this server clock is wrong (check NTP).',
    );
  }
  return { id, timestamp };
}
