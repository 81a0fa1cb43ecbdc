import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { ApiError } from './errors';
import { GitBookAPI, GitBookAPIError, PlatformAPI } from './index';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  userAgent: string | undefined;
  contentType: string | undefined;
  body: string;
}

const TOKEN = 'pit_secret_token_123';
const seen: Seen[] = [];
let server: Server;
let endpoint: string;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

const installation = {
  id: 'inst_1',
  integration: 'hello',
  target: 'space',
  space: 'spc_1',
  status: 'active',
  configuration: { channel: 'general' },
  externalIds: [],
  urls: { publicEndpoint: 'http://127.0.0.1/p' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        userAgent: req.headers['user-agent'],
        contentType: req.headers['content-type'],
        body,
      });
      if (req.url === '/v1/installations/inst_1') {
        const merged =
          req.method === 'PATCH'
            ? {
                ...installation,
                configuration: { ...installation.configuration, ...JSON.parse(body).configuration },
              }
            : installation;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(merged));
      } else if (req.url === '/v1/empty') {
        res.writeHead(204).end();
      } else if (req.url === '/v1/installations/plain') {
        res.writeHead(502).end('bad gateway');
      } else if (req.url === '/v1/installations/scoped') {
        const error = {
          code: 'missing_scope',
          message: 'lacks deliveries:read',
          details: { scope: 'deliveries:read' },
        };
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      } else if (req.url === '/v1/installations/notjson') {
        res.writeHead(200).end('<html>');
      } else {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'installation_not_found', message: 'No installation "x"' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createApiClient', () => {
  it('GETs an installation with the bearer token', async () => {
    const api = createApiClient({ endpoint, token: TOKEN });
    const inst = await api.installations.get('inst_1');
    expect(inst.configuration).toEqual({ channel: 'general' });
    const last = seen.at(-1);
    expect(last).toMatchObject({ method: 'GET', url: '/v1/installations/inst_1' });
    expect(last?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('PATCHes the configuration as {configuration: patch}', async () => {
    const api = createApiClient({ endpoint, token: TOKEN });
    const inst = await api.installations.updateConfiguration('inst_1', { extra: 1, channel: null });
    expect(inst.configuration).toEqual({ channel: null, extra: 1 });
    const last = seen.at(-1);
    expect(last?.method).toBe('PATCH');
    expect(last?.contentType).toBe('application/json');
    expect(JSON.parse(last?.body ?? '')).toEqual({ configuration: { extra: 1, channel: null } });
  });

  it('throws a typed ApiError parsed from the error body, without the token', async () => {
    const api = createApiClient({ endpoint, token: TOKEN });
    const error = await api.installations.get('some/other').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.code).toBe('installation_not_found');
    expect(apiError.message).toContain('No installation "x"');
    expect(apiError.message).not.toContain(TOKEN);
    expect(seen.at(-1)?.url).toBe('/v1/installations/some%2Fother');
    expect(apiError.details).toBeUndefined();
    await expect(api.installations.get('scoped')).rejects.toMatchObject({
      status: 403,
      code: 'missing_scope',
      details: { scope: 'deliveries:read' },
    });
  });

  it('reports non-JSON error bodies and non-JSON successes', async () => {
    const api = createApiClient({ endpoint, token: TOKEN });
    await expect(api.installations.get('plain')).rejects.toMatchObject({ status: 502, code: 'http_502' });
    await expect(api.installations.get('notjson')).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('returns undefined for 204 No Content through request()', async () => {
    const api = createApiClient({ endpoint, token: TOKEN });
    expect(await api.request<undefined>('DELETE', '/v1/empty')).toBeUndefined();
  });

  it('maps a refused connection to network_error without the token', async () => {
    const api = createApiClient({ endpoint: 'http://127.0.0.1:1', token: TOKEN });
    const error = (await api.installations.get('inst_1').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
    expect(error.message).not.toContain(TOKEN);
  });
});

describe('PlatformAPI (the class client, also exported as GitBookAPI)', () => {
  it('is the same client, built with { endpoint, authToken, userAgent }', async () => {
    expect(GitBookAPI).toBe(PlatformAPI);
    const api: GitBookAPI = new GitBookAPI({ endpoint, authToken: TOKEN, userAgent: 'porting-test/1' });
    expect(api).toBeInstanceOf(PlatformAPI);
    expect(api.userAgent).toBe('porting-test/1');
    const inst = await api.installations.get('inst_1');
    expect(inst.configuration).toEqual({ channel: 'general' });
    expect(seen.at(-1)).toMatchObject({ authorization: `Bearer ${TOKEN}`, userAgent: 'porting-test/1' });
    await api.installations.updateConfiguration('inst_1', { extra: 2 });
    expect(JSON.parse(seen.at(-1)?.body ?? '')).toEqual({ configuration: { extra: 2 } });
  });

  it('throws the ApiError every client throws, also exported as GitBookAPIError (HTTP status in `status`)', async () => {
    expect(GitBookAPIError).toBe(ApiError);
    const error = await new PlatformAPI({ endpoint, authToken: TOKEN })
      .request('GET', '/v1/installations/nope')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect(error).toMatchObject({ status: 404, code: 'installation_not_found' });
  });

  it('sends no authorization header without a token, and refuses a missing endpoint clearly', async () => {
    await new PlatformAPI({ endpoint }).installations.get('inst_1');
    expect(seen.at(-1)?.authorization).toBeUndefined();
    expect(() => new PlatformAPI({} as never)).toThrow(/`endpoint` is required.*apiEndpoint/);
  });
});
