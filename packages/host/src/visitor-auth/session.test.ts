import { describe, expect, it } from 'vitest';
import {
  MAX_CLAIMS_BYTES,
  openSession,
  SESSION_MAX_SECONDS,
  sealSession,
  sessionCookie,
  sessionCookieOf,
  sessionFromToken,
  siteLocation,
  type VisitorSession,
} from './session.js';

const NOW = 1_800_000_000;
const KEY = 'session-key';
const site = { siteId: 'site_1', installationId: 'inst_1' };

describe('sessions', () => {
  it('keeps the claims about the visitor, until the token expires, at most a day', () => {
    const session = sessionFromToken(
      'site_1',
      'inst_1',
      { sub: 'u', iat: NOW, exp: NOW + 600, jti: 'x' },
      NOW,
    );
    expect(session).toEqual({ ...site, claims: { sub: 'u' }, expiresAt: NOW + 600 });
    const long = sessionFromToken('site_1', 'inst_1', { sub: 'u', exp: NOW + 10 * SESSION_MAX_SECONDS }, NOW);
    expect((long as VisitorSession).expiresAt).toBe(NOW + SESSION_MAX_SECONDS);
    const big = sessionFromToken('site_1', 'inst_1', { sub: 'u', blob: 'x'.repeat(MAX_CLAIMS_BYTES) }, NOW);
    expect(big).toEqual({ reason: expect.stringMatching(/at most 2500/) });
  });

  it('opens a sealed session of the same site and installation before it expires, and nothing else', () => {
    const session: VisitorSession = { ...site, claims: { sub: 'u', groups: ['a'] }, expiresAt: NOW + 60 };
    const value = sealSession(session, KEY);
    expect(openSession(value, KEY, site, NOW)).toEqual(session);
    expect(openSession(value, KEY, site, NOW + 60)).toBeUndefined();
    expect(openSession(value, 'other-key', site, NOW)).toBeUndefined();
    expect(openSession(value, KEY, { ...site, siteId: 'site_2' }, NOW)).toBeUndefined();
    expect(openSession(value, KEY, { ...site, installationId: 'inst_2' }, NOW)).toBeUndefined();
    const [v, payload, mac] = value.split('.');
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), e: NOW + 1e6 }),
    ).toString('base64url');
    expect(openSession(`${v}.${altered}.${mac}`, KEY, site, NOW)).toBeUndefined();
    expect(openSession(undefined, KEY, site, NOW)).toBeUndefined();
    expect(openSession('garbage', KEY, site, NOW)).toBeUndefined();
  });

  it('writes and reads the cookie', () => {
    expect(sessionCookie('/sites/site_1', 'v1.a.b', 60, false)).toBe(
      'platform_visitor=v1.a.b; Path=/sites/site_1; Max-Age=60; HttpOnly; SameSite=Lax',
    );
    expect(sessionCookie('/sites/site_1', undefined, 60, true)).toBe(
      'platform_visitor=; Path=/sites/site_1; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
    );
    expect(sessionCookieOf('a=1; platform_visitor=v1.a.b; c=2')).toBe('v1.a.b');
    expect(sessionCookieOf(undefined)).toBeUndefined();
  });

  it('reads the location below the site, without the token', () => {
    expect(siteLocation(new URL('http://c/sites/s1/guide?a=1&jwt_token=x'), 's1')).toBe('/guide?a=1');
    expect(siteLocation(new URL('http://c/sites/s1'), 's1')).toBe('/');
    expect(siteLocation(new URL('http://c/sites/s1/?jwt_token=x'), 's1')).toBe('/');
  });
});
