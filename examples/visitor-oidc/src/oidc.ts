/**
 * The OpenID Connect parts of the example, stateless: the `state` parameter carries where the visitor
 * was going and a nonce, MACed with the installation's signing secret; the PKCE verifier is derived
 * from the same secret and nonce, so nothing is kept between the sign-in redirect and the callback.
 */

/** How long a sign-in may take, from the redirect to the callback (ms). */
export const STATE_TTL_MS = 10 * 60 * 1000;

const encoder = new TextEncoder();

/** Unpadded base64url. @example base64url(new Uint8Array([255])); // '_w' */
export function base64url(bytes: Uint8Array | string): string {
  const raw = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
  let binary = '';
  for (const byte of raw) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes unpadded base64url to text, or undefined. @example fromBase64url('aGk'); // 'hi' */
export function fromBase64url(text: string): string | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

async function mac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))));
}

/** What `state` carries. */
export interface SignInState {
  /** Where the visitor was going (a path of the site). */
  location: string;
  /** Random; also the ID token's `nonce` and the seed of the PKCE verifier. */
  nonce: string;
  /** When the sign-in started (ms). */
  at: number;
}

/** A new `state` for `location`. @example const { state, nonce } = await newState(secret, '/guide'); */
export async function newState(
  secret: string,
  location: string,
  now = Date.now(),
): Promise<{ state: string; nonce: string }> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const payload = base64url(JSON.stringify({ location, nonce, at: now } satisfies SignInState));
  return { state: `${payload}.${await mac(secret, `state.${payload}`)}`, nonce };
}

/**
 * The state of a callback when genuine and fresh; undefined otherwise (forged, altered or too old).
 * @example const state = await readState(secret, url.searchParams.get('state') ?? '');
 */
export async function readState(
  secret: string,
  state: string,
  now = Date.now(),
): Promise<SignInState | undefined> {
  const [payload, given, extra] = state.split('.');
  if (!payload || !given || extra !== undefined) return undefined;
  const expected = await mac(secret, `state.${payload}`);
  // Compared through a second MAC: equal inputs give equal outputs, and timing says nothing about either.
  if ((await mac(secret, `cmp.${given}`)) !== (await mac(secret, `cmp.${expected}`))) return undefined;
  const text = fromBase64url(payload);
  const parsed = text === undefined ? undefined : (JSON.parse(text) as Partial<SignInState>);
  if (
    !parsed ||
    typeof parsed.location !== 'string' ||
    typeof parsed.nonce !== 'string' ||
    typeof parsed.at !== 'number'
  ) {
    return undefined;
  }
  if (now - parsed.at > STATE_TTL_MS || parsed.at - now > 60_000) return undefined;
  return { location: parsed.location, nonce: parsed.nonce, at: parsed.at };
}

/** The PKCE verifier of a sign-in (RFC 7636), derived from the secret and the nonce. @example await pkceVerifier(secret, nonce); */
export function pkceVerifier(secret: string, nonce: string): Promise<string> {
  return mac(secret, `pkce.${nonce}`);
}

/** The S256 challenge of a verifier. @example await pkceChallenge(verifier); */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(verifier))));
}

/** The payload of a JWT (not verified: see `checkIdToken`), or undefined. @example jwtPayload(idToken)?.sub; */
export function jwtPayload(token: string): Record<string, unknown> | undefined {
  const text = fromBase64url(token.split('.')[1] ?? '');
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why an ID token received from the token endpoint cannot be trusted, or undefined when it can: its
 * issuer, audience, nonce and expiry are checked. Its signature is not: the token came straight from
 * the token endpoint over the connection the integration opened (OpenID Connect Core 3.1.3.7 allows
 * TLS to stand for it); an integration that receives ID tokens any other way must verify it.
 *
 * @example const problem = checkIdToken(claims, { issuer, clientId, nonce });
 */
export function checkIdToken(
  claims: Record<string, unknown>,
  expected: { issuer: string; clientId: string; nonce: string },
  now = Date.now(),
): string | undefined {
  if (claims.iss !== expected.issuer) return `the ID token's issuer is not ${expected.issuer}`;
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(expected.clientId)) return 'the ID token is not for this client';
  if (claims.nonce !== expected.nonce) return "the ID token's nonce does not match the sign-in";
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return 'the ID token has expired';
  if (typeof claims.sub !== 'string' || claims.sub === '') return 'the ID token has no subject';
  return undefined;
}
