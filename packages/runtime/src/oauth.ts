import { isRecord } from '@platform/api-client';
import { type FetchHandler, type IntegrationContext, publicEndpointOf } from './context';
import { IntegrationError, methodNotAllowed } from './errors';
import { htmlPage } from './html';
import { type OAuthTokenResponse, parseTokenAnswer, withTokenFields } from './oauth-response';
import { checkOAuthState, type StateProblem, signOAuthState } from './oauth-state';

/**
 * Credentials saved as `configuration.oauth_credentials`.
 * @example const c: OAuthCredentials = { access_token: 'gho_x', refresh_token: 'r', expires_in: 3600 };
 */
export interface OAuthCredentials {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  [key: string]: unknown;
}

/**
 * Parameters of {@link createOAuthHandler} (docs/contracts.md "Integration definition").
 * @example const config: OAuthConfig = { clientId, clientSecret, authorizeURL: 'https://github.com/login/oauth/authorize', accessTokenURL: 'https://github.com/login/oauth/access_token' };
 */
export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  authorizeURL: string;
  accessTokenURL: string;
  /** Redirect URL registered at the provider; `{publicEndpoint}/oauth` by default. */
  redirectURL?: string;
  /** Scopes requested, sent space-separated. */
  scopes?: string[];
  /** Sent as `prompt` (e.g. `consent`). */
  prompt?: string;
  /**
   * Turns the token response into credentials; throws when `response.ok` is false.
   * It may also return `{ configuration: {...} }` to save that patch as is (other keys are not
   * saved). The `Response` also carries the parsed answer (`response.access_token`, ...), so
   * `defaultOAuthExtractCredentials(response)` works on it.
   */
  extractCredentials?: (
    response: OAuthTokenResponse,
  ) =>
    | OAuthCredentials
    | { configuration: Record<string, unknown> }
    | Promise<OAuthCredentials | { configuration: Record<string, unknown> }>;
  /** Key signing `state`; `clientSecret` by default (never known to third parties). */
  stateSecret?: string;
}

/**
 * Default `extractCredentials`: reads `access_token`, `refresh_token`, `expires_in`
 * of a JSON (or form-encoded) token response; throws when the response is not ok.
 *
 * @example const credentials = await defaultExtractCredentials(response);
 */
export async function defaultExtractCredentials(response: Response): Promise<OAuthCredentials> {
  if (!response.ok) {
    throw new IntegrationError(`The token exchange failed with HTTP ${response.status}`, {
      status: 502,
      code: 'oauth_exchange_failed',
    });
  }
  const data = parseTokenAnswer(await response.text());
  if (typeof data.access_token !== 'string' || data.access_token === '') {
    throw new IntegrationError('The token response has no access_token', {
      status: 502,
      code: 'oauth_exchange_failed',
    });
  }
  const credentials: OAuthCredentials = { access_token: data.access_token };
  if (typeof data.refresh_token === 'string') credentials.refresh_token = data.refresh_token;
  const expiresIn = Number(data.expires_in);
  if (data.expires_in !== undefined && Number.isFinite(expiresIn)) credentials.expires_in = expiresIn;
  return credentials;
}

function stateMessage(problem: StateProblem): string {
  switch (problem) {
    case 'expired':
      return 'This authorization link has expired (links are valid for 10 minutes). Close this window and connect again.';
    case 'wrong_installation':
      return 'This authorization was started for another installation. Close this window and connect again.';
    default:
      return 'The authorization state is invalid or was altered. Close this window and connect again.';
  }
}

async function exchange(config: OAuthConfig, code: string, redirectUri: string, context: IntegrationContext) {
  const form = new URLSearchParams({
    client_id: config.clientId,
    client_secret: config.clientSecret,
    code,
    redirect_uri: redirectUri,
    grant_type: 'authorization_code',
  });
  let response: Response;
  try {
    response = await fetch(config.accessTokenURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
    });
  } catch {
    context.logger.warn(`OAuth: cannot reach the token endpoint ${new URL(config.accessTokenURL).origin}`);
    return undefined;
  }
  try {
    const result = await (config.extractCredentials ?? defaultExtractCredentials)(
      await withTokenFields(response),
    );
    return isRecord(result) && 'configuration' in result && isRecord(result.configuration)
      ? result.configuration
      : { oauth_credentials: result };
  } catch (error) {
    const reason = error instanceof IntegrationError ? error.message : `HTTP ${response.status}`;
    context.logger.warn(`OAuth: token exchange refused: ${reason}`);
    return undefined;
  }
}

/** Which of the values the flow cannot run without are empty (a secret not set for this environment). */
function unsetOAuthValues(config: OAuthConfig): Array<'clientId' | 'clientSecret'> {
  const unset: Array<'clientId' | 'clientSecret'> = [];
  if (!config.clientId) unset.push('clientId');
  if (!config.clientSecret) unset.push('clientSecret');
  return unset;
}

/**
 * The log line for an OAuth handler whose `clientId`/`clientSecret` is empty: which, the names of
 * the secrets the installation does have (never a value), and how to fix it.
 *
 * @example
 * oauthUnsetMessage(['clientSecret'], { CLIENT_ID: 'x' });
 * // 'OAuth: `clientSecret` is empty ... secrets set for this installation: CLIENT_ID. ...'
 */
export function oauthUnsetMessage(unset: readonly string[], secrets: Record<string, string>): string {
  const present = Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .map(([name]) => name);
  return `OAuth: \`${unset.join('` and `')}\` of createOAuthHandler ${unset.length === 1 ? 'is' : 'are'} empty: the secret ${unset.length === 1 ? 'it is' : 'they are'} read from is not set for this installation (secrets set: ${present.length ? present.join(', ') : 'none'}). Declare ${unset.length === 1 ? 'it' : 'them'} in the manifest \`secrets\` (in the \`envs\` entry published too, e.g. \`CLIENT_SECRET: \${{ env.MY_CLIENT_SECRET }}\`) and publish again with the value.`;
}

/**
 * The OAuth 2.0 authorization-code flow, served at `{publicEndpoint}/oauth`.
 * Without `code`: 302 to `authorizeURL` with a signed, expiring `state` bound to the
 * installation. With `code`: checks `state`, exchanges the code at `accessTokenURL`,
 * saves `{ oauth_credentials }` to the installation configuration, and answers a page
 * telling the user to close the window. Tokens never reach logs or pages.
 * `config` may be a function of the context (to read `environment.secrets`).
 *
 * @example
 * const oauth = createOAuthHandler((ctx) => ({
 *   clientId: ctx.environment.secrets.CLIENT_ID ?? '', clientSecret: ctx.environment.secrets.CLIENT_SECRET ?? '',
 *   authorizeURL: 'https://provider.example/authorize', accessTokenURL: 'https://provider.example/token', scopes: ['read'],
 * }));
 */
export function createOAuthHandler(
  config: OAuthConfig | ((context: IntegrationContext) => OAuthConfig),
): FetchHandler {
  return async (request, context) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    const resolved = typeof config === 'function' ? config(context) : config;
    const installationId = context.environment.installation?.id;
    const publicEndpoint = publicEndpointOf(context.environment);
    const redirectUri = resolved.redirectURL ?? (publicEndpoint ? `${publicEndpoint}/oauth` : undefined);
    if (!installationId || !redirectUri) {
      return htmlPage(400, 'Cannot connect', 'This request is not tied to an installation.', false);
    }
    const unset = unsetOAuthValues(resolved);
    if (unset.length > 0) {
      // An empty key cannot sign `state` (WebCrypto refuses a 0-byte HMAC key): say what is missing.
      context.logger.error(oauthUnsetMessage(unset, context.environment.secrets));
      return htmlPage(
        500,
        'Connection not configured',
        `This integration's OAuth ${unset.join(' and ')} is not set, so it cannot connect. Its publisher must set it.`,
        false,
      );
    }
    const key = resolved.stateSecret ?? resolved.clientSecret;
    const url = new URL(request.url);
    const providerError = url.searchParams.get('error');
    if (providerError) {
      return htmlPage(400, 'Authorization refused', `The provider answered: ${providerError}.`, false);
    }
    const code = url.searchParams.get('code');
    if (!code) {
      const target = new URL(resolved.authorizeURL);
      target.searchParams.set('client_id', resolved.clientId);
      target.searchParams.set('redirect_uri', redirectUri);
      target.searchParams.set('response_type', 'code');
      if (resolved.scopes?.length) target.searchParams.set('scope', resolved.scopes.join(' '));
      if (resolved.prompt) target.searchParams.set('prompt', resolved.prompt);
      target.searchParams.set('state', await signOAuthState(installationId, key));
      return new Response(null, {
        status: 302,
        headers: { location: target.toString(), 'cache-control': 'no-store' },
      });
    }
    const problem = await checkOAuthState(url.searchParams.get('state') ?? '', installationId, key);
    if (problem) {
      context.logger.warn(`OAuth: state refused (${problem})`);
      return htmlPage(400, 'Authorization failed', stateMessage(problem), false);
    }
    const patch = await exchange(resolved, code, redirectUri, context);
    if (!patch) {
      return htmlPage(
        502,
        'Authorization failed',
        'The provider did not issue a token. Close this window and try again.',
        false,
      );
    }
    try {
      await context.api.installations.updateConfiguration(installationId, patch);
    } catch (error) {
      context.logger.error(
        `OAuth: saving the credentials failed: ${error instanceof Error ? error.message : 'unknown'}`,
      );
      return htmlPage(
        502,
        'Authorization failed',
        'The credentials could not be saved. Try again later.',
        false,
      );
    }
    context.logger.info('OAuth: credentials saved');
    return htmlPage(200, 'Connected', 'The connection succeeded. You may close this window.', true);
  };
}
