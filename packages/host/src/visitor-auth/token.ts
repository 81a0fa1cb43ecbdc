import { createHmac, timingSafeEqual } from 'node:crypto';

/** Clock skew allowed on `exp`, `nbf` and `iat` (seconds): the integration's clock may be a little off. */
export const CLOCK_SKEW_SECONDS = 60;

/** A verified visitor token: its claims and when it expires (seconds since the epoch). */
export interface VerifiedVisitorToken {
  ok: true;
  claims: Record<string, unknown>;
  exp: number;
}

/** Why a visitor token was refused (safe to show: never the token nor the secret). */
export interface RefusedVisitorToken {
  ok: false;
  reason: string;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Verifies a visitor token (docs/visitor-authentication.md): a compact JWT signed HS256 with the site
 * installation's signing secret, with a numeric `exp` in the future (`nbf`/`iat` not in the future),
 * give or take {@link CLOCK_SKEW_SECONDS}. Any other `alg` (`none` included) is refused; the MAC is
 * compared in constant time. Pure: `now` is seconds since the epoch.
 *
 * @example
 * const result = verifyVisitorToken(url.searchParams.get('jwt_token') ?? '', secret, Math.floor(Date.now() / 1000));
 * if (result.ok) console.log(result.claims.sub);
 */
export function verifyVisitorToken(
  token: string,
  secret: string,
  now: number,
): VerifiedVisitorToken | RefusedVisitorToken {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) {
    return { ok: false, reason: 'the token is not a compact JWT (three base64url parts)' };
  }
  const [head, body, mac] = parts as [string, string, string];
  const header = decodeJson(head);
  if (!isRecord(header) || header.alg !== 'HS256') {
    return { ok: false, reason: 'the token is not signed HS256 (the only algorithm the host accepts)' };
  }
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      reason: "the token's signature does not match this site installation's signing secret",
    };
  }
  const claims = decodeJson(body);
  if (!isRecord(claims)) return { ok: false, reason: "the token's payload is not a JSON object" };
  const { exp, nbf, iat } = claims;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    return { ok: false, reason: 'the token has no numeric `exp` (expiry)' };
  }
  if (exp + CLOCK_SKEW_SECONDS <= now) return { ok: false, reason: 'the token has expired' };
  if (typeof nbf === 'number' && nbf - CLOCK_SKEW_SECONDS > now) {
    return { ok: false, reason: 'the token is not valid yet (`nbf`)' };
  }
  if (typeof iat === 'number' && iat - CLOCK_SKEW_SECONDS > now) {
    return { ok: false, reason: 'the token was issued in the future (`iat`)' };
  }
  return { ok: true, claims, exp };
}
