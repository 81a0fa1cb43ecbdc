import { describe, expect, it } from 'vitest';
import { itPassesCheck } from '../../../test/examples/support';
import { checkIdToken, newState, pkceChallenge, pkceVerifier, readState, STATE_TTL_MS } from '../src/oidc';

const SECRET = 'pvs_example_secret';

describe('examples/visitor-oidc', () => {
  itPassesCheck('examples/visitor-oidc');

  it('carries the location in a state only its secret makes, for ten minutes', async () => {
    const now = 1_800_000_000_000;
    const { state, nonce } = await newState(SECRET, '/guide?tab=2', now);
    expect(await readState(SECRET, state, now + 1000)).toEqual({ location: '/guide?tab=2', nonce, at: now });
    expect(await readState(SECRET, state, now + STATE_TTL_MS + 1)).toBeUndefined();
    expect(await readState('another secret', state, now)).toBeUndefined();
    const [payload, mac] = state.split('.');
    expect(await readState(SECRET, `${payload}x.${mac}`, now)).toBeUndefined();
    expect(await readState(SECRET, 'nonsense', now)).toBeUndefined();
  });

  it('derives the PKCE verifier from the secret and the nonce (S256 challenge)', async () => {
    const verifier = await pkceVerifier(SECRET, 'n1');
    expect(verifier).toBe(await pkceVerifier(SECRET, 'n1'));
    expect(verifier).not.toBe(await pkceVerifier(SECRET, 'n2'));
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await pkceChallenge(verifier)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('trusts an ID token of its issuer, client and nonce only', () => {
    const now = 1_800_000_000_000;
    const good = { iss: 'https://idp', aud: 'c1', nonce: 'n', exp: now / 1000 + 60, sub: 'u' };
    const expected = { issuer: 'https://idp', clientId: 'c1', nonce: 'n' };
    expect(checkIdToken(good, expected, now)).toBeUndefined();
    expect(checkIdToken({ ...good, aud: ['x', 'c1'] }, expected, now)).toBeUndefined();
    expect(checkIdToken({ ...good, iss: 'https://other' }, expected, now)).toMatch(/issuer/);
    expect(checkIdToken({ ...good, aud: 'c2' }, expected, now)).toMatch(/not for this client/);
    expect(checkIdToken({ ...good, nonce: 'm' }, expected, now)).toMatch(/nonce/);
    expect(checkIdToken({ ...good, exp: now / 1000 - 1 }, expected, now)).toMatch(/expired/);
    expect(checkIdToken({ ...good, sub: '' }, expected, now)).toMatch(/subject/);
  });
});
