import { describe, expect, it } from 'vitest';
import { readPortalLink } from './link';

describe('readPortalLink', () => {
  it('reads the token and the API base URL of a link made by the host', () => {
    const fragment = new URLSearchParams({ token: 'pps_Ab-9_x', api: 'http://127.0.0.1:8080/' });
    expect(readPortalLink(`#${fragment}`)).toEqual({
      link: { token: 'pps_Ab-9_x', api: 'http://127.0.0.1:8080' },
    });
  });

  it('says the page needs its link when there is no fragment (a reload)', () => {
    const result = readPortalLink('');
    expect('problem' in result && result.problem).toMatch(/opens from a portal link/);
  });

  it('refuses a token that is not a portal session and an API that is not http(s)', () => {
    expect(readPortalLink('#token=pot_org&api=http%3A%2F%2Fh')).toEqual({
      problem: expect.stringMatching(/token is missing or damaged/),
    });
    expect(readPortalLink('#token=pps_a&api=javascript%3Aalert(1)')).toEqual({
      problem: expect.stringMatching(/not an http\(s\) address/),
    });
    expect(readPortalLink('#token=pps_a')).toEqual({
      problem: expect.stringMatching(/does not say where the API is/),
    });
  });
});
