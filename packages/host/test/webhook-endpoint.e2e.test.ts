import type { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer } from '../src/delivery/endpoint/test-support.js';
import { BACKENDS } from './backends.js';
import { type EndpointInstallation, type ErrorBody, endpointHost } from './endpoint-host.js';

// Endpoint settings (docs/contracts.md "Endpoint settings"): custom headers and authentication of a webhook
// installation, through a running host to real receivers and a real OAuth2 server on 127.0.0.1.

describe.each(BACKENDS)('webhook endpoint headers and auth (%s)', (backend) => {
  const h = endpointHost(backend);
  const receiver = h.receiver;
  const install = async (configuration: Record<string, unknown>) => {
    const { res, placeId } = await h.install(configuration);
    return { res, spaceId: placeId };
  };
  const send = (spaceId: string, revision = 'rev-1') =>
    h.post({ type: 'space_content_updated', spaceId, revisionId: revision });
  const settled = (id: string, count: number) => h.settled(id, count);
  type Installation = EndpointInstallation;

  it('sends custom headers and basic auth; reads show every value masked', async () => {
    const r = await receiver();
    const { res, spaceId } = await install({
      url: r.url,
      headers: { 'X-Api-Key': 'key-123', 'X-Tenant': 'acme' },
      auth: { type: 'basic', username: 'hooks', password: 's3cret:pw' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.configuration.headers).toEqual({ 'X-Api-Key': '********', 'X-Tenant': '********' });
    expect(res.body.configuration.auth).toEqual({ type: 'basic', username: 'hooks', password: '********' });
    const read = await h.t.api<Installation>('GET', `/v1/installations/${res.body.id}`);
    expect(JSON.stringify(read.body)).not.toContain('key-123');
    expect(JSON.stringify(read.body)).not.toContain('s3cret');

    await send(spaceId);
    const [request] = await r.waitFor(1);
    expect(request!.headers['x-api-key']).toBe('key-123');
    expect(request!.headers['x-tenant']).toBe('acme');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('hooks:s3cret:pw').toString('base64')}`);
    // The spec's headers are still there, and win.
    expect(request!.headers['x-platform-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(request!.headers['content-type']).toBe('application/json');

    // An edit writing the masked values back keeps them; a new value replaces one.
    const edited = await h.t.api<Installation>('PATCH', `/v1/installations/${res.body.id}`, {
      configuration: {
        headers: { 'X-Api-Key': '********', 'X-Tenant': 'globex' },
        auth: { type: 'bearer', token: 'tok-456' },
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.configuration.auth).toEqual({ type: 'bearer', token: '********' });
    await send(spaceId, 'rev-2');
    const [, second] = await r.waitFor(2);
    expect(second!.headers['x-api-key']).toBe('key-123');
    expect(second!.headers['x-tenant']).toBe('globex');
    expect(second!.headers.authorization).toBe('Bearer tok-456');

    // Removing them (null) sends the spec's request again.
    await h.t.api('PATCH', `/v1/installations/${res.body.id}`, {
      configuration: { headers: null, auth: null },
    });
    await send(spaceId, 'rev-3');
    const [, , third] = await r.waitFor(3);
    expect(third!.headers['x-api-key']).toBeUndefined();
    expect(third!.headers.authorization).toBeUndefined();
  });

  it.each([
    ['Host', 'Host'],
    ['Content-Length', 'Content-Length'],
    ['Connection', 'Connection'],
    ['Transfer-Encoding', 'Transfer-Encoding'],
    ['X-Platform-Signature', 'X-Platform-Signature'],
    ['webhook-signature', 'webhook-signature'],
    ['webhook-id', 'webhook-id'],
    ['Webhook-Timestamp', 'Webhook-Timestamp'],
    ['Bad Name', 'Bad Name'],
    ['X-Split\r\nInjected', 'CR or LF'],
  ])('refuses the header %j with a 400 naming it, installing nothing', async (name, named) => {
    const before = await h.t.api<{ installations: unknown[] }>('GET', '/v1/installations');
    const { res } = await install({ url: 'http://127.0.0.1:9/hook', headers: { [name]: 'v' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_configuration');
    expect(res.body.error.message).toContain('configuration.headers');
    expect(res.body.error.message).toContain(named);
    const after = await h.t.api<{ installations: unknown[] }>('GET', '/v1/installations');
    expect(after.body.installations.length).toBe(before.body.installations.length);
  });

  it('refuses CR/LF in a value and a masked value with nothing stored; an edit refused changes nothing', async () => {
    const r = await receiver();
    const { res } = await install({ url: r.url, headers: { 'X-Ok': 'fine' } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const crlf = await h.t.api<ErrorBody>('PATCH', `/v1/installations/${id}`, {
      configuration: { headers: { 'X-Ok': 'a\r\nX-Evil: 1' } },
    });
    expect(crlf.status).toBe(400);
    expect(crlf.body.error.message).toContain('"X-Ok": a header value may not contain CR or LF');
    const masked = await h.t.api<ErrorBody>('PATCH', `/v1/installations/${id}`, {
      configuration: { auth: { type: 'bearer', token: '********' } },
    });
    expect(masked.status).toBe(400);
    expect(masked.body.error.message).toContain('auth.token');
    const emptyAuth = await h.t.api<ErrorBody>('PATCH', `/v1/installations/${id}`, {
      configuration: { auth: { type: 'digest' } },
    });
    expect(emptyAuth.status).toBe(400);
    expect(emptyAuth.body.error.message).toContain('auth');
    // auth beside a stored Authorization header: refused too, naming both.
    await h.t.api('PATCH', `/v1/installations/${id}`, {
      configuration: { headers: { Authorization: 'ApiKey k' } },
    });
    const both = await h.t.api<ErrorBody>('PATCH', `/v1/installations/${id}`, {
      configuration: { auth: { type: 'bearer', token: 't' } },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('either an Authorization header or auth');
    const read = await h.t.api<Installation>('GET', `/v1/installations/${id}`);
    expect(read.body.status).toBe('active');
    expect(read.body.configuration.headers).toEqual({ Authorization: '********' });
    expect(read.body.configuration.auth).toBeUndefined();
  });

  describe('OAuth2 client credentials against oauth2-mock-server', () => {
    let oauth: OAuth2Server;
    const issued: string[] = [];
    let tokenRequests = 0;
    let clientSeen = '';

    beforeAll(async () => {
      oauth = await startOAuthServer((response, req) => {
        tokenRequests++;
        clientSeen = Buffer.from(
          String(req.headers.authorization).replace(/^Basic /, ''),
          'base64',
        ).toString();
        if (clientSeen !== 'hook-client:client-secret-1') {
          response.statusCode = 401;
          response.body = { error: 'invalid_client' };
          return;
        }
        issued.push(String(response.body.access_token));
      });
    });
    afterAll(async () => {
      await oauth.stop();
    });
    const oauthAuth = (clientSecret: string, scope?: string) => ({
      type: 'oauth2_client_credentials',
      token_url: `${oauth.issuer.url}/token`,
      client_id: 'hook-client',
      client_secret: clientSecret,
      ...(scope ? { scope } : {}),
    });

    it('fetches a token once, reuses it, and fetches again once after a 401', async () => {
      // The receiver accepts only the newest token the OAuth server issued (it "revokes" the older ones).
      let refuseNext = false;
      const r = await receiver((request, res) => {
        const ok = request.headers.authorization === `Bearer ${issued.at(-1)}`;
        if (refuseNext || !ok) {
          refuseNext = false;
          res.writeHead(401).end('{"error":"invalid_token"}');
          return;
        }
        res.writeHead(200).end('{}');
      });
      const { res, spaceId } = await install({
        url: r.url,
        auth: oauthAuth('client-secret-1', 'webhooks'),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.configuration.auth).toMatchObject({
        client_secret: '********',
        client_id: 'hook-client',
      });
      const base = tokenRequests;
      await send(spaceId, 'rev-a');
      await settled(res.body.id, 1);
      await send(spaceId, 'rev-b');
      await send(spaceId, 'rev-c');
      const three = await settled(res.body.id, 3);
      expect(three.map((d) => d.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(tokenRequests - base).toBe(1); // cached: one token for three deliveries
      expect(clientSeen).toBe('hook-client:client-secret-1');
      expect(r.received.every((q) => q.headers.authorization === `Bearer ${issued.at(-1)}`)).toBe(true);

      // The receiver refuses the cached token once: a new one is fetched, the request made again, in one attempt.
      refuseNext = true;
      await send(spaceId, 'rev-d');
      const four = await settled(res.body.id, 4);
      expect(tokenRequests - base).toBe(2);
      expect(four[0]).toMatchObject({ state: 'succeeded', attempts: [{ statusCode: 200 }] });
      // 3 deliveries + the refused request + the same attempt's request with the renewed token.
      expect(r.received).toHaveLength(5);
    });

    it('a receiver that refuses every token: one renewal per attempt, then the attempt fails (401 is not retried)', async () => {
      const r = await receiver((_q, res) => res.writeHead(401).end());
      const { res, spaceId } = await install({
        url: r.url,
        auth: oauthAuth('client-secret-1'),
      });
      const base = tokenRequests;
      await send(spaceId);
      const [delivery] = await settled(res.body.id, 1);
      expect(delivery).toMatchObject({ state: 'failed', attempts: [{ statusCode: 401 }] });
      expect(r.received.length).toBe(2);
      expect(tokenRequests - base).toBe(2);
    });

    it('a token endpoint that refuses the client: the attempt ends auth_error and is retried, never sent', async () => {
      const r = await receiver();
      const { res, spaceId } = await install({
        url: r.url,
        auth: oauthAuth('wrong-secret'),
      });
      await send(spaceId);
      const [delivery] = await settled(res.body.id, 1);
      expect(delivery!.state).toBe('exhausted');
      expect(delivery!.attempts).toHaveLength(4);
      expect(delivery!.attempts[0]!.error).toMatch(/^auth_error: .*HTTP 401 \(invalid_client\)/);
      expect(delivery!.attempts[0]!.error).not.toContain('wrong-secret');
      expect(r.received).toHaveLength(0);
    });
  });
});
