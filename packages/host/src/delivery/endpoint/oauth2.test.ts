import type { OAuth2Server } from 'oauth2-mock-server';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockPrivateTargets, parseAllowPrivateTargets } from '../../net/index.js';
import { OAuthTokenError, OAuthTokens } from './oauth2.js';
import { startOAuthServer } from './test-support.js';

// A real OAuth2 server on 127.0.0.1 (oauth2-mock-server); the clock is injected.
describe('OAuthTokens', () => {
  let server: OAuth2Server;
  let requests: Array<{ body: Record<string, string>; authorization: string }> = [];
  let ttl: number | undefined = 120;
  let ttlAsText = false;
  const dispatcher = new Agent();

  beforeAll(async () => {
    server = await startOAuthServer((response, req) => {
      requests.push({ body: req.body, authorization: String(req.headers.authorization) });
      if (ttl === undefined) delete response.body.expires_in;
      else response.body.expires_in = ttlAsText ? String(ttl) : ttl;
      response.body.access_token = `token-${requests.length}`;
    });
  });
  afterAll(async () => {
    await server.stop();
    await dispatcher.close();
  });

  const auth = () => ({
    type: 'oauth2_client_credentials' as const,
    token_url: `${server.issuer.url}/token`,
    client_id: 'client a',
    client_secret: 's:cret',
    scope: 'hooks',
    audience: 'https://receiver.example',
  });

  /** Tokens from loopback servers, on the clock `now`. */
  const tokensAt = (now: () => number) =>
    new OAuthTokens({ dispatcher, policy: parseAllowPrivateTargets('1'), timeoutMs: 2000, now });

  it('asks with HTTP Basic client auth and the grant, caches until expiry (less 5 s), renews on demand', async () => {
    requests = [];
    ttl = 120;
    let now = 1_000_000;
    const tokens = tokensAt(() => now);
    const [a, b] = await Promise.all([
      tokens.authorization('inst_1', auth()),
      tokens.authorization('inst_1', auth()),
    ]);
    expect(a).toBe('Bearer token-1');
    expect(b).toBe('Bearer token-1'); // one request for concurrent callers
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'hooks',
      audience: 'https://receiver.example',
    });
    expect(Buffer.from(requests[0]!.authorization.replace('Basic ', ''), 'base64').toString()).toBe(
      'client%20a:s%3Acret',
    );
    now += 114_999;
    expect(await tokens.authorization('inst_1', auth())).toBe('Bearer token-1');
    now += 1;
    expect(await tokens.authorization('inst_1', auth())).toBe('Bearer token-2');
    expect(await tokens.renew('inst_1', auth())).toBe('Bearer token-3');
    expect(await tokens.authorization('inst_1', auth())).toBe('Bearer token-3');
    // Another endpoint, or edited settings, get their own token.
    expect(await tokens.authorization('inst_2', auth())).toBe('Bearer token-4');
    expect(await tokens.authorization('inst_1', { ...auth(), client_secret: 'other' })).toBe(
      'Bearer token-5',
    );
  });

  // A token is kept for its lifetime less 5 s: an hour without expires_in, and expires_in read from text.
  it.each([
    {
      name: 'keeps a token without expires_in for an hour',
      lifetime: undefined,
      asText: false,
      keptMs: 3_595_000,
    },
    { name: 'reads an expires_in sent as a string of digits', lifetime: 30, asText: true, keptMs: 25_000 },
  ])('$name', async ({ lifetime, asText, keptMs }) => {
    requests = [];
    ttl = lifetime;
    ttlAsText = asText;
    let now = 0;
    const tokens = tokensAt(() => now);
    await tokens.authorization('inst_1', auth());
    now += keptMs - 1;
    await tokens.authorization('inst_1', auth());
    expect(requests).toHaveLength(1);
    now += 1;
    await tokens.authorization('inst_1', auth());
    expect(requests).toHaveLength(2);
    ttlAsText = false;
  });

  it('refuses a token URL the address policy refuses, without a request; a failure is not cached', async () => {
    requests = [];
    const tokens = new OAuthTokens({ dispatcher, policy: blockPrivateTargets(), timeoutMs: 2000 });
    await expect(tokens.authorization('inst_1', auth())).rejects.toThrow(OAuthTokenError);
    expect(requests).toHaveLength(0);
    const refused = new OAuthTokens({ dispatcher, policy: parseAllowPrivateTargets('1'), timeoutMs: 2000 });
    const closed = { ...auth(), token_url: 'http://127.0.0.1:9/token' };
    await expect(refused.authorization('inst_1', closed)).rejects.toThrow(
      /token endpoint 127\.0\.0\.1:9: connection_refused/,
    );
    await expect(refused.authorization('inst_1', closed)).rejects.toThrow(OAuthTokenError);
  });
});
