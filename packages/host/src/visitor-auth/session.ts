import { createHmac, timingSafeEqual } from 'node:crypto';

/** The visitor session cookie's name (one per site: its `Path` is the site's). */
export const SESSION_COOKIE = 'platform_visitor';
/** A session lasts as long as the token it came from, at most this (seconds). */
export const SESSION_MAX_SECONDS = 24 * 3600;
/** The kept claims' JSON at most (bytes): the session travels in a cookie (browsers keep about 4 KB). */
export const MAX_CLAIMS_BYTES = 2500;
/** Claims about the token rather than the visitor: not kept in the session. */
const TOKEN_CLAIMS = new Set(['iat', 'nbf', 'exp', 'jti']);

/** A visitor's session on one site: who signed them in, their claims, until when (seconds since the epoch). */
export interface VisitorSession {
  siteId: string;
  installationId: string;
  claims: Record<string, unknown>;
  expiresAt: number;
}

/**
 * The session a verified token starts (pure): the token's claims without those about the token itself
 * (`iat`, `nbf`, `exp`, `jti`), until the token's `exp`, at most {@link SESSION_MAX_SECONDS} from `now`.
 * Refused (a reason) when the claims are over {@link MAX_CLAIMS_BYTES}.
 *
 * @example
 * const session = sessionFromToken('site_1', 'inst_1', { sub: 'u1', exp: 2e9 }, 1.7e9);
 */
export function sessionFromToken(
  siteId: string,
  installationId: string,
  tokenClaims: Record<string, unknown>,
  now: number,
): VisitorSession | { reason: string } {
  const claims = Object.fromEntries(Object.entries(tokenClaims).filter(([key]) => !TOKEN_CLAIMS.has(key)));
  const size = Buffer.byteLength(JSON.stringify(claims));
  if (size > MAX_CLAIMS_BYTES) {
    return {
      reason: `the token's claims are ${size} bytes; the host keeps at most ${MAX_CLAIMS_BYTES} (sign fewer claims)`,
    };
  }
  const exp = typeof tokenClaims.exp === 'number' ? tokenClaims.exp : now;
  return { siteId, installationId, claims, expiresAt: Math.min(Math.floor(exp), now + SESSION_MAX_SECONDS) };
}

function mac(key: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`visitor-session.v1.${payload}`).digest();
}

/**
 * The cookie value of a session: `v1.<payload>.<mac>`, the payload base64url JSON, the MAC HMAC-SHA256
 * under the host's session key. Signed, not encrypted: the claims are the visitor's own.
 *
 * @example
 * const value = sealSession(session, key);
 */
export function sealSession(session: VisitorSession, key: string): string {
  const payload = Buffer.from(
    JSON.stringify({ s: session.siteId, i: session.installationId, c: session.claims, e: session.expiresAt }),
  ).toString('base64url');
  return `v1.${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The session in a cookie value, when genuine (constant-time MAC check), of this site and installation
 * (another backend installed since does not inherit it), and not expired at `now`; else undefined.
 *
 * @example
 * const session = openSession(cookieValue, key, { siteId: 'site_1', installationId: 'inst_1' }, now);
 */
export function openSession(
  value: string | undefined,
  key: string,
  expected: { siteId: string; installationId: string },
  now: number,
): VisitorSession | undefined {
  const match = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(value ?? '');
  if (!match) return undefined;
  const [, payload, given] = match as unknown as [string, string, string];
  const expectedMac = mac(key, payload);
  const givenMac = Buffer.from(given, 'base64url');
  if (givenMac.length !== expectedMac.length || !timingSafeEqual(givenMac, expectedMac)) return undefined;
  let parsed: { s?: unknown; i?: unknown; c?: unknown; e?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (parsed.s !== expected.siteId || parsed.i !== expected.installationId) return undefined;
  if (typeof parsed.e !== 'number' || parsed.e <= now) return undefined;
  if (typeof parsed.c !== 'object' || parsed.c === null) return undefined;
  return {
    siteId: expected.siteId,
    installationId: expected.installationId,
    claims: parsed.c as Record<string, unknown>,
    expiresAt: parsed.e,
  };
}

/**
 * The `Set-Cookie` of a session (or, with `undefined`, of its removal) on a site's path: `HttpOnly`
 * (no script reads it), `SameSite=Lax` (sent on the top-level navigation back from the identity
 * provider), `Secure` when the content origin is HTTPS.
 *
 * @example
 * headers.append('set-cookie', sessionCookie('/sites/site_1', value, session.expiresAt - now, true));
 */
export function sessionCookie(
  path: string,
  value: string | undefined,
  maxAge: number,
  secure: boolean,
): string {
  const parts = [
    `${SESSION_COOKIE}=${value ?? ''}`,
    `Path=${path}`,
    `Max-Age=${value === undefined ? 0 : Math.max(0, Math.floor(maxAge))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The value of the session cookie in a `Cookie` header, if any.
 *
 * @example
 * sessionCookieOf('a=1; platform_visitor=v1.x.y'); // 'v1.x.y'
 */
export function sessionCookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=');
  }
  return undefined;
}

/**
 * A visitor's location as the site's path (pure): the part of `pathname` below `/sites/{siteId}` (`/`
 * when nothing) with the query, `jwt_token` left out.
 *
 * @example
 * siteLocation(new URL('http://c/sites/s1/guide?a=1&jwt_token=x'), 's1'); // '/guide?a=1'
 */
export function siteLocation(url: URL, siteId: string): string {
  const base = `/sites/${encodeURIComponent(siteId)}`;
  const rest = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
  const query = new URLSearchParams(url.search);
  query.delete('jwt_token');
  const search = query.toString();
  return `${rest.startsWith('/') ? rest : `/${rest}`}${search ? `?${search}` : ''}`;
}
