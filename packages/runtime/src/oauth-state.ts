import { fromBase64, toBase64Url, toHex, utf8 } from '@platform/webhooks/bytes';
import { hmacKey, hmacSign, hmacVerify } from './hmac';

/** How long an OAuth `state` stays valid. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
const DOMAIN = 'platform-oauth-state.v1.';

/** Why a state was refused. */
export type StateProblem = 'malformed' | 'tampered' | 'expired' | 'wrong_installation';

/**
 * Makes an OAuth `state`: `base64url(JSON{i,x,n}).base64url(HMAC-SHA256)`, bound to
 * the installation, expiring after 10 minutes, with a random nonce. Without the key
 * a third party can neither forge nor alter it.
 *
 * @example const state = await signOAuthState('inst_1', clientSecret);
 */
export async function signOAuthState(
  installationId: string,
  key: string,
  now: number = Date.now(),
): Promise<string> {
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(12)));
  const payload = toBase64Url(
    utf8(JSON.stringify({ i: installationId, x: now + OAUTH_STATE_TTL_MS, n: nonce })),
  );
  const mac = await hmacSign(await hmacKey(key), utf8(DOMAIN + payload));
  return `${payload}.${toBase64Url(mac)}`;
}

/**
 * Checks a state made by {@link signOAuthState}: signature (constant time), expiry,
 * and that it was issued for `installationId`. Returns the problem, or undefined.
 *
 * @example if (await checkOAuthState(state, 'inst_1', clientSecret)) return badRequest();
 */
export async function checkOAuthState(
  state: string,
  installationId: string,
  key: string,
  now: number = Date.now(),
): Promise<StateProblem | undefined> {
  const [payload, signature, extra] = state.split('.');
  if (!payload || !signature || extra !== undefined) return 'malformed';
  const mac = fromBase64(signature);
  if (!mac || !(await hmacVerify(await hmacKey(key), mac, utf8(DOMAIN + payload)))) return 'tampered';
  const bytes = fromBase64(payload);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return 'malformed';
  }
  const { i, x } = (data ?? {}) as { i?: unknown; x?: unknown };
  if (typeof x !== 'number' || now > x) return 'expired';
  if (i !== installationId) return 'wrong_installation';
  return undefined;
}
