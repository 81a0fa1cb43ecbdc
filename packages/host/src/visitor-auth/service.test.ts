import { describe, expect, it } from 'vitest';
import { redirectTarget } from './service.js';

describe('redirectTarget', () => {
  it('takes the Location of a redirect to an http(s) URL', () => {
    expect(redirectTarget(302, 'https://idp.example.com/authorize?x=1', 'oidc', false)).toBe(
      'https://idp.example.com/authorize?x=1',
    );
    expect(redirectTarget(303, 'http://127.0.0.1:9/a', 'oidc', false)).toBe('http://127.0.0.1:9/a');
  });

  it('accepts nothing only for logout', () => {
    expect(redirectTarget(204, null, 'oidc', true)).toBeUndefined();
    expect(() => redirectTarget(204, null, 'oidc', false)).toThrow(/answered HTTP 204/);
  });

  it.each([
    [200, 'https://idp.example.com', /answered HTTP 200/],
    [302, null, /without Location/],
    [302, '/relative', /not an absolute URL/],
    [302, 'javascript:alert(1)', /javascript: URL/],
  ])('refuses %s %s with a 502 that says what to answer', (status, location, message) => {
    try {
      redirectTarget(status, location, 'oidc', false);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 502, code: 'invalid_visitor_authentication' });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Response\.redirect/);
    }
  });
});
