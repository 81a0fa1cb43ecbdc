import { describe, expect, it } from 'vitest';
import { IntegrationError } from './errors';
import { defaultOAuthExtractCredentials, parseTokenAnswer, withTokenFields } from './oauth-response';

describe('parseTokenAnswer', () => {
  it('reads JSON, else a form-encoded answer', () => {
    expect(parseTokenAnswer('{"access_token":"a","expires_in":60}')).toEqual({
      access_token: 'a',
      expires_in: 60,
    });
    expect(parseTokenAnswer('access_token=a&scope=repo')).toEqual({ access_token: 'a', scope: 'repo' });
    expect(parseTokenAnswer('[1]')).toEqual({});
  });
});

describe('withTokenFields', () => {
  it('keeps status, headers and an unread body, and adds the fields a Response does not have', async () => {
    const original = new Response('{"access_token":"a","status":"weird","ok":false}', {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request': 'r1' },
    });
    const handed = await withTokenFields(original);
    expect(handed.access_token).toBe('a');
    expect(handed.status).toBe(200);
    expect(handed.ok).toBe(true);
    expect(handed.headers.get('x-request')).toBe('r1');
    expect(await handed.json()).toEqual({ access_token: 'a', status: 'weird', ok: false });
  });

  it('hands on an empty refusal as a Response without fields', async () => {
    const handed = await withTokenFields(new Response(null, { status: 401 }));
    expect(handed.ok).toBe(false);
    expect(handed.access_token).toBeUndefined();
    expect(await handed.text()).toBe('');
  });
});

describe('defaultOAuthExtractCredentials', () => {
  it('is the patch createOAuthHandler saves, with expires_at for getOAuthToken', () => {
    expect(
      defaultOAuthExtractCredentials({ access_token: 'a', refresh_token: 'r', expires_in: 60 }, () => 5),
    ).toEqual({
      configuration: {
        oauth_credentials: { access_token: 'a', refresh_token: 'r', expires_in: 60, expires_at: 60_005 },
      },
    });
    expect(defaultOAuthExtractCredentials({ access_token: 'a', expires_in: 'x' as never })).toEqual({
      configuration: { oauth_credentials: { access_token: 'a' } },
    });
  });

  it('throws an IntegrationError for an answer without access_token', () => {
    expect(() => defaultOAuthExtractCredentials({ error: 'bad_verification_code' })).toThrow(
      IntegrationError,
    );
    expect(() => defaultOAuthExtractCredentials({ error: 'bad_verification_code' })).toThrow(
      /no access_token/,
    );
  });
});
