import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_SECONDS, verifyVisitorToken } from './token.js';

const SECRET = 'pvs_test_secret';
const NOW = 1_800_000_000;

function jwt(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256' },
  secret = SECRET,
) {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part(header)}.${part(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('verifyVisitorToken', () => {
  it('accepts an HS256 token of the secret with a future exp, and gives its claims', () => {
    const result = verifyVisitorToken(jwt({ sub: 'u1', email: 'a@example.com', exp: NOW + 60 }), SECRET, NOW);
    expect(result).toEqual({
      ok: true,
      claims: { sub: 'u1', email: 'a@example.com', exp: NOW + 60 },
      exp: NOW + 60,
    });
  });

  it.each([
    [
      'another secret',
      jwt({ sub: 'u', exp: NOW + 60 }, { alg: 'HS256' }, 'other'),
      /signature does not match/,
    ],
    [
      'alg none',
      `${jwt({ sub: 'u', exp: NOW + 60 }, { alg: 'none' })
        .split('.')
        .slice(0, 2)
        .join('.')}.`,
      /HS256/,
    ],
    ['RS256', jwt({ sub: 'u', exp: NOW + 60 }, { alg: 'RS256' }), /HS256/],
    ['no exp', jwt({ sub: 'u' }), /no numeric `exp`/],
    ['expired beyond the skew', jwt({ sub: 'u', exp: NOW - CLOCK_SKEW_SECONDS }), /expired/],
    ['nbf ahead', jwt({ sub: 'u', exp: NOW + 600, nbf: NOW + 300 }), /not valid yet/],
    ['iat ahead', jwt({ sub: 'u', exp: NOW + 600, iat: NOW + 300 }), /issued in the future/],
    ['two parts', 'a.b', /compact JWT/],
    ['a payload that is an array', jwt([1] as unknown as Record<string, unknown>), /JSON object/],
  ])('refuses %s', (_name, token, reason) => {
    const result = verifyVisitorToken(token, SECRET, NOW);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
    expect(result.ok ? '' : result.reason).not.toContain(SECRET);
  });

  it('allows a little clock skew', () => {
    expect(verifyVisitorToken(jwt({ sub: 'u', exp: NOW - 10, iat: NOW + 10 }), SECRET, NOW).ok).toBe(true);
  });
});
