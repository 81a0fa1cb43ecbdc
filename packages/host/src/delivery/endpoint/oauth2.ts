import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { type AddressPolicy, validateWebhookUrl } from '../../net/index.js';
import { toAttemptError } from '../errors.js';
import { ExchangeTimeout, postExchange } from '../exchange.js';
import type { oauth2AuthSchema } from './auth.js';

/** An `oauth2_client_credentials` auth with its client secret. */
export type OAuth2Auth = z.infer<typeof oauth2AuthSchema>;

/** A token without `expires_in` is kept this long (or until a 401). */
export const DEFAULT_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A token is not sent in the last this many ms before it expires (clock skew, time in flight). */
export const EXPIRY_MARGIN_MS = 5_000;
/** At most this many bytes of a token response are read. */
const TOKEN_RESPONSE_BYTES = 64 * 1024;
/** At most this many cached tokens (then the cache starts over). */
const MAX_TOKENS = 10_000;

/** Why no token could be had; its message names the token endpoint's host, never a secret. */
export class OAuthTokenError extends Error {
  override readonly name = 'OAuthTokenError';
}

/** Options of {@link OAuthTokens}. */
export interface OAuthTokensOptions {
  /** The guarded dispatcher of the deliveries: the token endpoint is held to the same address policy. */
  dispatcher: Dispatcher;
  policy: AddressPolicy;
  timeoutMs: number;
  now?: () => number;
}

interface Cached {
  authorization: Promise<string>;
  expiresAt: number;
}

/**
 * OAuth2 client-credentials tokens of webhook endpoints (RFC 6749 section 4.4), one per endpoint and
 * settings: fetched from the token endpoint through the deliveries' guarded dispatcher, kept until they
 * expire (`expires_in`, less {@link EXPIRY_MARGIN_MS}), fetched once at a time per endpoint, and fetched
 * again by {@link renew} (after the receiver answered 401).
 *
 * @example
 * const tokens = new OAuthTokens({ dispatcher, policy, timeoutMs: 10_000 });
 * const header = await tokens.authorization('inst_1', auth); // 'Bearer eyJ...'
 * const fresh = await tokens.renew('inst_1', auth); // after a 401
 */
export class OAuthTokens {
  readonly #options: OAuthTokensOptions;
  readonly #now: () => number;
  #cache = new Map<string, Cached>();

  constructor(options: OAuthTokensOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The `Authorization` header value for the endpoint: the cached token while valid, else a new one. */
  authorization(endpointId: string, auth: OAuth2Auth): Promise<string> {
    const key = cacheKey(endpointId, auth);
    const cached = this.#cache.get(key);
    if (cached && this.#now() < cached.expiresAt) return cached.authorization;
    return this.#fetchInto(key, auth);
  }

  /** Forgets the endpoint's token and fetches a new one (the receiver refused the cached one). */
  renew(endpointId: string, auth: OAuth2Auth): Promise<string> {
    return this.#fetchInto(cacheKey(endpointId, auth), auth);
  }

  #fetchInto(key: string, auth: OAuth2Auth): Promise<string> {
    if (this.#cache.size >= MAX_TOKENS) this.#cache = new Map();
    // Until the answer is in, concurrent deliveries of the endpoint wait for this same request.
    const entry: Cached = { authorization: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
    entry.authorization = this.#fetch(auth).then(
      ({ token, ttlMs }) => {
        entry.expiresAt = this.#now() + Math.max(0, ttlMs - EXPIRY_MARGIN_MS);
        return `Bearer ${token}`;
      },
      (error: unknown) => {
        if (this.#cache.get(key) === entry) this.#cache.delete(key);
        throw error;
      },
    );
    this.#cache.set(key, entry);
    return entry.authorization;
  }

  async #fetch(auth: OAuth2Auth): Promise<{ token: string; ttlMs: number }> {
    const check = validateWebhookUrl(auth.token_url, this.#options.policy);
    if (!check.ok) throw new OAuthTokenError(`token_url refused: ${check.message}`);
    const url = new URL(auth.token_url);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scope !== undefined) form.set('scope', auth.scope);
    if (auth.audience !== undefined) form.set('audience', auth.audience);
    // RFC 6749 section 2.3.1: client id and secret form-encoded, then HTTP Basic.
    const basic = Buffer.from(
      `${encodeURIComponent(auth.client_id)}:${encodeURIComponent(auth.client_secret)}`,
      'utf8',
    ).toString('base64');
    let answer: { statusCode: number; excerpt: Buffer };
    try {
      answer = await postExchange({
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${basic}`,
        },
        body: Buffer.from(form.toString(), 'utf8'),
        dispatcher: this.#options.dispatcher,
        timeoutMs: this.#options.timeoutMs,
        excerptBytes: TOKEN_RESPONSE_BYTES,
      });
    } catch (error) {
      const failure = toAttemptError(error, error instanceof ExchangeTimeout, this.#options.timeoutMs);
      throw new OAuthTokenError(`token endpoint ${url.host}: ${failure.code}: ${failure.message}`);
    }
    const where = `token endpoint ${url.host}`;
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      const code = oauthErrorCode(answer.excerpt);
      throw new OAuthTokenError(`${where} answered HTTP ${answer.statusCode}${code ? ` (${code})` : ''}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.excerpt.toString('utf8'));
    } catch {
      throw new OAuthTokenError(`${where} answered with no JSON token response`);
    }
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const token = fields.access_token;
    // RFC 6750 b64token characters only: the token goes into a header.
    if (typeof token !== 'string' || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token))
      throw new OAuthTokenError(`${where} answered without a usable access_token`);
    if (typeof fields.token_type === 'string' && fields.token_type.toLowerCase() !== 'bearer')
      throw new OAuthTokenError(
        `${where} answered token_type "${fields.token_type}"; only Bearer is supported`,
      );
    // A number of seconds; some servers send it as a string of digits.
    const expiresIn =
      typeof fields.expires_in === 'string' && /^\d+$/.test(fields.expires_in)
        ? Number(fields.expires_in)
        : fields.expires_in;
    const ttlMs =
      typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
        ? expiresIn * 1000
        : DEFAULT_TOKEN_TTL_MS;
    return { token, ttlMs };
  }
}

/** One token per endpoint and settings: an edited client, secret, scope or URL gets a new one. */
function cacheKey(endpointId: string, auth: OAuth2Auth): string {
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        auth.token_url,
        auth.client_id,
        auth.client_secret,
        auth.scope ?? null,
        auth.audience ?? null,
      ]),
    )
    .digest('base64url');
  return `${endpointId}:${digest}`;
}

/** The OAuth2 `error` code of an error answer (a short token, nothing else of the body). */
function oauthErrorCode(excerpt: Buffer): string | undefined {
  try {
    const body = JSON.parse(excerpt.toString('utf8')) as { error?: unknown };
    return typeof body.error === 'string' && /^[\w.-]{1,64}$/.test(body.error) ? body.error : undefined;
  } catch {
    return undefined;
  }
}
