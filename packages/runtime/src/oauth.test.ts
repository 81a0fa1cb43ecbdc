import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from './integration';
import { createOAuthHandler } from './oauth';
import { defaultOAuthExtractCredentials, type OAuthTokenResponse } from './oauth-response';
import { signOAuthState } from './oauth-state';
import { type LoopbackServer, listenOnLoopback as listen } from './test-support';
import { decodeLogsHeader, envelopeRequest, testEnvironment } from './testing';

let provider: LoopbackServer;
let host: LoopbackServer;
let tokenStatus = 200;

beforeAll(async () => {
  provider = await listen((_req, _body, res) => {
    if (tokenStatus !== 200) {
      res.writeHead(tokenStatus, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        access_token: 'AT_SECRET_1',
        refresh_token: 'RT_SECRET_1',
        expires_in: 3600,
        token_type: 'bearer',
      }),
    );
  });
  host = await listen((_req, body, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 'inst_test', configuration: JSON.parse(body).configuration }));
  });
});

afterAll(async () => {
  await Promise.all([provider.close(), host.close()]);
});

const publicEndpoint = 'https://host.example/v1/integrations/hello/installations/inst_test/public';

function integration(extra: Partial<Parameters<typeof createOAuthHandler>[0]> = {}) {
  return createIntegration({
    fetch: createOAuthHandler((ctx) => ({
      clientId: ctx.environment.secrets.CLIENT_ID ?? '',
      clientSecret: ctx.environment.secrets.CLIENT_SECRET ?? '',
      authorizeURL: `${provider.url}/authorize?audience=x`,
      accessTokenURL: `${provider.url}/token`,
      scopes: ['read', 'write'],
      prompt: 'consent',
      ...extra,
    })),
  });
}

function call(
  query: string,
  method = 'GET',
  extra: Partial<Parameters<typeof createOAuthHandler>[0]> = {},
  secrets: Record<string, string> = { CLIENT_ID: 'client_1', CLIENT_SECRET: 'client_secret_1' },
) {
  const environment = testEnvironment({
    apiEndpoint: host.url,
    secrets,
    integration: {
      name: 'hello',
      version: '1',
      title: 'Hello',
      urls: { publicEndpoint, publicContentEndpoint: publicEndpoint },
    },
  });
  if (environment.installation) environment.installation.urls.publicEndpoint = publicEndpoint;
  const event = {
    type: 'fetch',
    eventId: 'e',
    request: { method, url: `${publicEndpoint}/oauth${query}`, headers: {} },
  };
  return integration(extra).fetch(envelopeRequest(event, { environment }));
}

describe('createOAuthHandler', () => {
  it('names the missing client secret (and the secrets there are) instead of failing to sign with an empty key', async () => {
    // The manifest declared CLIENT_SECRET only for another `envs` entry: this installation lacks it.
    const before = provider.seen.length;
    for (const query of ['', '?code=c&state=s']) {
      const response = await call(query, 'GET', {}, { CLIENT_ID: 'client_1' });
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('OAuth clientSecret is not set, so it cannot connect');
      const logged = decodeLogsHeader(response.headers.get('x-platform-logs')).map((l) => l.message);
      expect(logged).toEqual([
        expect.stringMatching(
          /^OAuth: `clientSecret` of createOAuthHandler is empty: .*not set for this installation \(secrets set: CLIENT_ID\)\. Declare it in the manifest `secrets`/,
        ),
      ]);
      expect(logged.join()).not.toMatch(/HMAC|DataError|client_1/);
    }
    expect(provider.seen.length).toBe(before); // the provider was never asked
  });

  it('redirects to the provider with every parameter and a signed state', async () => {
    const response = await call('');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(`${provider.url}/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      audience: 'x',
      client_id: 'client_1',
      redirect_uri: `${publicEndpoint}/oauth`,
      response_type: 'code',
      scope: 'read write',
      prompt: 'consent',
    });
    expect(location.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('exchanges the code, saves oauth_credentials through the API and answers a closing page', async () => {
    const redirect = new URL((await call('')).headers.get('location') ?? '');
    const state = redirect.searchParams.get('state') ?? '';
    const response = await call(`?code=CODE_1&state=${encodeURIComponent(state)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('You may close this window');
    expect(html).toContain("window.opener?.postMessage({ type: 'platform:oauth', ok: true }, '*')");
    expect(html).not.toContain('AT_SECRET_1');
    expect(Object.fromEntries(new URLSearchParams(provider.seen.at(-1)?.body))).toEqual({
      client_id: 'client_1',
      client_secret: 'client_secret_1',
      code: 'CODE_1',
      redirect_uri: `${publicEndpoint}/oauth`,
      grant_type: 'authorization_code',
    });
    const saved = host.seen.at(-1);
    expect(saved).toMatchObject({
      method: 'PATCH',
      url: '/v1/installations/inst_test',
      authorization: 'Bearer pit_test_token',
    });
    expect(JSON.parse(saved?.body ?? '')).toEqual({
      configuration: {
        oauth_credentials: { access_token: 'AT_SECRET_1', refresh_token: 'RT_SECRET_1', expires_in: 3600 },
      },
    });
    const logs = JSON.stringify(decodeLogsHeader(response.headers.get('x-platform-logs')));
    expect(logs).toContain('credentials saved');
    expect(logs).not.toContain('AT_SECRET_1');
  });

  it('answers 400 HTML for a tampered state without calling the provider', async () => {
    const before = provider.seen.length;
    const state = await signOAuthState('inst_test', 'not_the_client_secret');
    const response = await call(`?code=C&state=${state}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('invalid or was altered');
    expect(provider.seen.length).toBe(before);
  });

  it('answers 400 HTML for an expired state', async () => {
    const state = await signOAuthState('inst_test', 'client_secret_1', Date.now() - 11 * 60 * 1000);
    const response = await call(`?code=C&state=${state}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('has expired');
  });

  it('answers 502 HTML when the token exchange is refused, saving nothing', async () => {
    const saves = host.seen.length;
    const state = await signOAuthState('inst_test', 'client_secret_1');
    tokenStatus = 400;
    try {
      const response = await call(`?code=C&state=${state}`);
      expect(response.status).toBe(502);
      const html = await response.text();
      expect(html).toContain('did not issue a token');
      expect(html).toContain('ok: false');
    } finally {
      tokenStatus = 200;
    }
    expect(host.seen.length).toBe(saves);
  });

  it('shows a provider error and refuses other methods', async () => {
    const refused = await call('?error=access_denied');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('access_denied');
    expect((await call('', 'POST')).status).toBe(405);
  });

  it('hands extractCredentials the Response with the parsed answer on it: either way of reading works', async () => {
    const saved: unknown[] = [];
    const upstreamStyle = async (response: OAuthTokenResponse) => {
      const patch = defaultOAuthExtractCredentials(response, () => 1_000);
      saved.push((await response.json()) as unknown);
      return { configuration: { ...patch.configuration, account: String(response.token_type) } };
    };
    const state = await signOAuthState('inst_test', 'client_secret_1');
    const response = await call(`?code=C2&state=${state}`, 'GET', { extractCredentials: upstreamStyle });
    expect(response.status).toBe(200);
    expect(saved).toEqual([expect.objectContaining({ access_token: 'AT_SECRET_1', token_type: 'bearer' })]);
    expect(JSON.parse(host.seen.at(-1)?.body ?? '')).toEqual({
      configuration: {
        oauth_credentials: {
          access_token: 'AT_SECRET_1',
          refresh_token: 'RT_SECRET_1',
          expires_in: 3600,
          expires_at: 1_000 + 3_600_000,
        },
        account: 'bearer',
      },
    });
  });
});
