import { isRecord } from '@platform/api-client';
import { IntegrationError } from './errors';

/**
 * A provider's token answer, parsed (JSON, or form-encoded as some providers answer).
 * @example const answer: OAuthResponse = { access_token: 'gho_x', refresh_token: 'r', expires_in: 3600 };
 */
export interface OAuthResponse {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  [key: string]: unknown;
}

/**
 * What `extractCredentials` is handed: the token endpoint's `Response` (its body unread), which
 * also carries the parsed answer's fields (`response.access_token`, ...), so a function written
 * for either form works (docs/contracts.md, `createOAuthHandler`).
 * @example const token = (response as OAuthTokenResponse).access_token ?? (await response.json()).access_token;
 */
export type OAuthTokenResponse = Response & Partial<OAuthResponse>;

/** The fields of a token answer's text: JSON, else form-encoded. */
export function parseTokenAnswer(text: string): Record<string, unknown> {
  try {
    const data: unknown = JSON.parse(text);
    return isRecord(data) && !Array.isArray(data) ? data : {};
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/**
 * Reads a token endpoint's answer once and returns a fresh `Response` with the same status,
 * headers and body, carrying the parsed fields as own properties (those a `Response` does not
 * already have).
 *
 * @example const handed = await withTokenFields(await fetch(accessTokenURL, { method: 'POST', body }));
 */
export async function withTokenFields(response: Response): Promise<OAuthTokenResponse> {
  const text = await response.text();
  const fresh = new Response(text === '' ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  for (const [key, value] of Object.entries(parseTokenAnswer(text))) {
    if (!(key in fresh)) Object.defineProperty(fresh, key, { value, enumerable: true });
  }
  return fresh as OAuthTokenResponse;
}

/**
 * The configuration patch `createOAuthHandler` saves for a parsed token answer:
 * `{ configuration: { oauth_credentials } }` with `access_token`, `refresh_token`, `expires_in`
 * and `expires_at` (ms since the epoch, what `getOAuthToken` refreshes by). Synchronous, for an
 * `extractCredentials` that adds to the default (the name code written for the upstream SDK uses).
 * Throws an `IntegrationError` when the answer has no `access_token` (a refused exchange).
 *
 * @example
 * createOAuthHandler({ ...config, extractCredentials: (response) => ({
 *   ...defaultOAuthExtractCredentials(response as OAuthTokenResponse),
 *   externalIds: ['acct_1'],
 * }) });
 */
export function defaultOAuthExtractCredentials(
  response: Partial<OAuthResponse>,
  now: () => number = Date.now,
): { configuration: { oauth_credentials: OAuthResponse & { expires_at?: number } } } {
  const accessToken = response.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new IntegrationError('The token response has no access_token', {
      status: 502,
      code: 'oauth_exchange_failed',
    });
  }
  const credentials: OAuthResponse & { expires_at?: number } = { access_token: accessToken };
  if (typeof response.refresh_token === 'string') credentials.refresh_token = response.refresh_token;
  const expiresIn = Number(response.expires_in);
  if (response.expires_in !== undefined && Number.isFinite(expiresIn)) {
    credentials.expires_in = expiresIn;
    credentials.expires_at = now() + expiresIn * 1000;
  }
  return { configuration: { oauth_credentials: credentials } };
}
