import {
  createIntegration,
  type FetchEventCallback,
  type FetchVisitorAuthenticationEventCallback,
  publicEndpointOf,
  publicPath,
  type RuntimeContext,
  type RuntimeEnvironment,
  signVisitorToken,
  visitorReturnUrl,
} from '@platform/runtime';
import { checkIdToken, jwtPayload, newState, pkceChallenge, pkceVerifier, readState } from './oidc';

/** The site settings (`configurations.site` of the manifest). */
interface Settings {
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
}

type Context = RuntimeContext<RuntimeEnvironment<Record<string, unknown>, Settings>>;

/** Where the provider sends visitors back, below the installation's public endpoint. */
export const CALLBACK_PATH = '/visitor-auth/response';
/** The claims of the ID token passed on to the site (the host keeps them in the visitor's session). */
const KEPT_CLAIMS = ['sub', 'name', 'email', 'email_verified', 'groups'];

function settingsOf(context: Context) {
  const settings = context.environment.siteInstallation?.configuration ?? {};
  const secret = context.environment.signingSecrets?.siteInstallation;
  const { issuer, authorization_endpoint, token_endpoint, client_id, client_secret } = settings;
  if (!issuer || !authorization_endpoint || !token_endpoint || !client_id || !client_secret || !secret) {
    return undefined;
  }
  return {
    issuer,
    authorizationEndpoint: authorization_endpoint,
    tokenEndpoint: token_endpoint,
    clientId: client_id,
    clientSecret: client_secret,
    scope: settings.scope ?? 'openid email profile',
    secret,
  };
}

function redirectUri(context: Context): string {
  return `${publicEndpointOf(context.environment)}${CALLBACK_PATH}`;
}

/** A visitor without a session: to the provider's sign-in page (the authorization code flow, with PKCE). */
const signIn: FetchVisitorAuthenticationEventCallback<Context> = async (event, context) => {
  // Logged out of the site: nothing to end at the provider here; the host sends them to the site's root.
  if (event.action === 'logout') return undefined;
  const settings = settingsOf(context);
  if (!settings) throw new Error('visitor-oidc is not configured (issuer, endpoints, client id and secret)');
  const { state, nonce } = await newState(settings.secret, event.location);
  const url = new URL(settings.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', redirectUri(context));
  url.searchParams.set('scope', settings.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', await pkceChallenge(await pkceVerifier(settings.secret, nonce)));
  url.searchParams.set('code_challenge_method', 'S256');
  return Response.redirect(url.toString(), 302);
};

function refuse(status: number, message: string): Response {
  return new Response(`Sign-in failed: ${message}`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/** The provider's redirect back: code → ID token → the visitor's claims, signed for the host. */
const callback: FetchEventCallback<Context> = async (request, context) => {
  if (publicPath(request, context) !== CALLBACK_PATH) return new Response('Not found', { status: 404 });
  const settings = settingsOf(context);
  if (!settings) return refuse(503, 'the integration is not configured');
  const url = new URL(request.url);
  const error = url.searchParams.get('error');
  if (error) return refuse(401, `the provider answered ${error}`);
  const state = await readState(settings.secret, url.searchParams.get('state') ?? '');
  if (!state) return refuse(400, 'the sign-in link is invalid or expired; open the site again');
  const code = url.searchParams.get('code');
  if (!code) return refuse(400, 'the provider sent no authorization code');
  const answer = await fetch(settings.tokenEndpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`)}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(context),
      code_verifier: await pkceVerifier(settings.secret, state.nonce),
    }),
    redirect: 'manual',
  });
  if (!answer.ok) {
    context.logger.warn(`token endpoint answered HTTP ${answer.status}`);
    return refuse(502, `the provider's token endpoint answered HTTP ${answer.status}`);
  }
  const { id_token: idToken } = (await answer.json()) as { id_token?: string };
  const claims = idToken ? jwtPayload(idToken) : undefined;
  if (!claims) return refuse(502, 'the provider sent no ID token');
  const problem = checkIdToken(claims, {
    issuer: settings.issuer,
    clientId: settings.clientId,
    nonce: state.nonce,
  });
  if (problem) return refuse(401, problem);
  const kept = Object.fromEntries(KEPT_CLAIMS.filter((k) => k in claims).map((k) => [k, claims[k]]));
  const token = await signVisitorToken(kept, settings.secret, { expiresInSeconds: 3600 });
  return Response.redirect(visitorReturnUrl(context.environment, state.location, token), 302);
};

export default createIntegration<Context>({ fetch: callback, fetch_visitor_authentication: signIn });
