import { isRecord } from '@platform/api-client';
import type { IntegrationContext } from '../context';
import { defaultExtractCredentials, type OAuthConfig, type OAuthCredentials } from '../oauth';
import { ExposableError } from './exposable-error';

/** Refresh this long before `expires_at`, so a token does not expire in flight. */
export const OAUTH_REFRESH_MARGIN_MS = 60_000;

/** Stored credentials: what `createOAuthHandler` saves, plus `expires_at` (ms since the epoch). */
export type StoredOAuthCredentials = OAuthCredentials & { expires_at?: number };

function expiresAt(credentials: StoredOAuthCredentials): number | undefined {
  return typeof credentials.expires_at === 'number' && Number.isFinite(credentials.expires_at)
    ? credentials.expires_at
    : undefined;
}

/**
 * An access token from stored OAuth credentials: returned as is while valid; when `expires_at` is
 * (almost) past and a `refresh_token` exists, refreshed at `config.accessTokenURL`
 * (`grant_type=refresh_token`) and the new credentials saved to the installation configuration as
 * `oauth_credentials` (with `expires_at`). Missing or unrefreshable credentials throw an
 * {@link ExposableError} telling the user to connect again.
 *
 * @example
 * const token = await getOAuthToken(context.environment.installation?.configuration.oauth_credentials, config, context);
 * await fetch('https://api.example.com/me', { headers: { authorization: `Bearer ${token}` } });
 */
export async function getOAuthToken(
  credentials: unknown,
  config: Pick<OAuthConfig, 'clientId' | 'clientSecret' | 'accessTokenURL'>,
  context: IntegrationContext,
  now: () => number = Date.now,
): Promise<string> {
  if (!isRecord(credentials) || typeof credentials.access_token !== 'string' || !credentials.access_token) {
    throw new ExposableError('This integration is not connected yet: connect it in its configuration.', 401);
  }
  const stored = credentials as StoredOAuthCredentials;
  const deadline = expiresAt(stored);
  if (deadline === undefined || deadline - OAUTH_REFRESH_MARGIN_MS > now()) return stored.access_token;
  if (typeof stored.refresh_token !== 'string' || !stored.refresh_token) {
    throw new ExposableError('The connection has expired: connect the integration again.', 401);
  }
  let response: Response;
  try {
    response = await fetch(config.accessTokenURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: stored.refresh_token,
      }),
    });
  } catch {
    throw new ExposableError('The provider could not be reached to renew the connection; try again.', 502);
  }
  let fresh: OAuthCredentials;
  try {
    fresh = await defaultExtractCredentials(response);
  } catch {
    context.logger.warn(`OAuth: token refresh refused (HTTP ${response.status})`);
    throw new ExposableError('The connection could not be renewed: connect the integration again.', 401);
  }
  const next: StoredOAuthCredentials = {
    ...fresh,
    refresh_token: fresh.refresh_token ?? stored.refresh_token,
    ...(fresh.expires_in !== undefined ? { expires_at: now() + fresh.expires_in * 1000 } : {}),
  };
  const installationId = context.environment.installation?.id;
  if (installationId) {
    await context.api.installations.updateConfiguration(installationId, { oauth_credentials: next });
  }
  return next.access_token;
}
