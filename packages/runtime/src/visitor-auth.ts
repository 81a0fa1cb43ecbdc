import type { IntegrationEnvironment } from '@platform/api-client';
import { toBase64Url, utf8 } from '@platform/webhooks/bytes';
import { hmacKey, hmacSign } from './hmac';

/** How long a visitor token lives by default (seconds): the host's session lasts as long, at most a day. */
export const VISITOR_TOKEN_SECONDS = 3600;

/** Claims about a visitor (`sub`, `email`, `name`, groups, ...): JSON values. */
export type VisitorClaims = Record<string, unknown>;

/**
 * Signs a visitor's claims for the host (docs/visitor-authentication.md): a JWT, HS256, under the site
 * installation's signing secret (`environment.signingSecrets.siteInstallation`), with `iat` and `exp`
 * set (`exp` of the claims is kept when given). The host verifies it and starts the visitor's session.
 *
 * @example
 * const token = await signVisitorToken({ sub: 'u1', email: 'a@example.com' }, secret);
 */
export async function signVisitorToken(
  claims: VisitorClaims,
  secret: string,
  options: { expiresInSeconds?: number; now?: number } = {},
): Promise<string> {
  if (secret === '') throw new TypeError('signVisitorToken: the signing secret is empty');
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const payload = {
    ...claims,
    iat: now,
    exp:
      typeof claims.exp === 'number' ? claims.exp : now + (options.expiresInSeconds ?? VISITOR_TOKEN_SECONDS),
  };
  const encode = (value: unknown) => toBase64Url(utf8(JSON.stringify(value)));
  const signingInput = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  const mac = await hmacSign(await hmacKey(secret), utf8(signingInput));
  return `${signingInput}.${toBase64Url(mac)}`;
}

/**
 * Where to send a signed-in visitor: the site (`siteInstallation.urls.published`) at `location` (the
 * event's, a path of the site), with the token as `jwt_token`. Refuses a location that is not a path of
 * the site (an absolute URL, `//host`), so a forged `state` cannot send visitors elsewhere.
 *
 * @example
 * return Response.redirect(visitorReturnUrl(context.environment, '/guide', token), 302);
 */
export function visitorReturnUrl(
  environment: IntegrationEnvironment,
  location: string,
  token: string,
): string {
  const site = environment.siteInstallation?.urls.published;
  if (!site) {
    throw new TypeError(
      'visitorReturnUrl: the environment has no siteInstallation.urls.published (not a site installation?)',
    );
  }
  const path = location === '' ? '/' : location;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) {
    throw new TypeError(
      `visitorReturnUrl: "${location}" is not a path of the site (it must start with one "/")`,
    );
  }
  const url = new URL(`${site.replace(/\/$/, '')}${path}`);
  url.searchParams.set('jwt_token', token);
  return url.toString();
}
