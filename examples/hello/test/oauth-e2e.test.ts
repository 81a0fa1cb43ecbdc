import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { envelopeRequest } from '@platform/runtime/testing';
import type { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthProvider } from '../../../packages/dashboard/test/oauth-provider';
import hello from '../src/index';
import { bundleHello, helloEnvironment, startWorkerd, type Workerd } from './harness';

interface Patch {
  url: string;
  authorization: string | undefined;
  body: unknown;
}

let provider: OAuth2Server;
let host: Server;
let hostUrl: string;
const patches: Patch[] = [];
const tokenRequests: Record<string, string>[] = [];
const issued: string[] = [];
let refuseNextExchange = false;
let worker: Workerd;

beforeAll(async () => {
  provider = await startOAuthProvider((response, req) => {
    tokenRequests.push({ ...req.body });
    if (refuseNextExchange) {
      refuseNextExchange = false;
      response.statusCode = 400;
      response.body = { error: 'invalid_grant' };
      return;
    }
    issued.push(String(response.body.access_token));
  });

  host = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as { configuration?: Record<string, unknown> };
      patches.push({ url: `${req.method} ${req.url}`, authorization: req.headers.authorization, body });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ id: 'inst_hello', integration: 'hello', configuration: body.configuration ?? {} }),
        );
    });
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  worker = await startWorkerd(await bundleHello(), ['nodejs_compat']);
});

afterAll(async () => {
  await worker.dispose();
  await provider.stop();
  await new Promise((resolve) => host.close(resolve));
});

function environment() {
  const issuer = provider.issuer.url ?? '';
  return helloEnvironment({
    apiEndpoint: hostUrl,
    secrets: { OAUTH_AUTHORIZE_URL: `${issuer}/authorize`, OAUTH_TOKEN_URL: `${issuer}/token` },
  });
}

function oauthEvent(url: string) {
  return { type: 'fetch', eventId: 'evt_oauth', request: { method: 'GET', url, headers: {} } };
}

const runners: [string, (url: string) => Promise<Response>][] = [
  ['Node', (url) => hello.fetch(envelopeRequest(oauthEvent(url), { environment: environment() }))],
  ['workerd', (url) => worker.post(oauthEvent(url), { environment: environment() })],
];

describe.each(runners)('OAuth end to end against oauth2-mock-server (%s)', (_name, invoke) => {
  const publicEndpoint = helloEnvironment().integration.urls.publicEndpoint;

  async function authorize(): Promise<URL> {
    const start = await invoke(`${publicEndpoint}/oauth`);
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.headers.get('location') ?? '');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${publicEndpoint}/oauth`);
    // the user's browser follows the redirect; the provider sends it back with a code
    const consent = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${publicEndpoint}/oauth`);
    expect(back.searchParams.get('state')).toBe(authorizeUrl.searchParams.get('state'));
    return back;
  }

  it('redirect -> authorize -> code -> exchange -> credentials saved through the host API', async () => {
    const back = await authorize();
    const code = back.searchParams.get('code') ?? '';
    const before = patches.length;
    const done = await invoke(back.toString());
    const html = await done.text();
    expect(done.status).toBe(200);
    expect(html).toContain('You may close this window');

    const exchange = tokenRequests.at(-1);
    expect(exchange).toEqual({
      client_id: 'hello-client',
      client_secret: 'hello-client-secret',
      code,
      redirect_uri: `${publicEndpoint}/oauth`,
      grant_type: 'authorization_code',
    });
    expect(patches.length).toBe(before + 1);
    const patch = patches.at(-1);
    expect(patch?.url).toBe('PATCH /v1/installations/inst_hello');
    expect(patch?.authorization).toBe('Bearer pit_hello_token');
    const accessToken = issued.at(-1) ?? '';
    expect(accessToken.split('.')).toHaveLength(3);
    expect(patch?.body).toEqual({
      configuration: {
        oauth_credentials: { access_token: accessToken, refresh_token: expect.any(String), expires_in: 3600 },
      },
    });
    expect(html).not.toContain(accessToken);
    expect(done.headers.get('x-platform-logs') ?? '').not.toContain(accessToken);
  });

  it('a refused exchange saves nothing and answers an error page', async () => {
    const back = await authorize();
    const before = patches.length;
    refuseNextExchange = true;
    const done = await invoke(back.toString());
    expect(done.status).toBe(502);
    expect(await done.text()).toContain('did not issue a token');
    expect(patches.length).toBe(before);
  });

  it('a state altered on the way back is refused before any exchange', async () => {
    const back = await authorize();
    const state = back.searchParams.get('state') ?? '';
    back.searchParams.set('state', `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`);
    const before = tokenRequests.length;
    const done = await invoke(back.toString());
    expect(done.status).toBe(400);
    expect(await done.text()).toContain('invalid or was altered');
    expect(tokenRequests.length).toBe(before);
  });
});
