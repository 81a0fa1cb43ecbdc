import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApiClient, createHostApi, routeRequest } from '@platform/api-client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { createApi } from './api/app.js';
import { apiWithoutIntegrations } from './api/test-support.js';
import { type HostRoute, type HostRoutes, type HostStatus, hostApi } from './api-contract.js';
import { installSpaceWebhook, openTempStorage, testContext } from './services/test-support.js';
import type { Storage } from './storage/index.js';

const ADMIN = 'pat_contract_admin_token';
let dir: string;
let storage: Storage;
let app: ReturnType<typeof createApi>;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ dir, storage } = await openTempStorage('api-contract-'));
  const ctx = await testContext(dir, storage);
  await installSpaceWebhook(storage, 'sp1');
  app = apiWithoutIntegrations(ctx, ADMIN, 'contract-test');
  server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

/** The JSON schema objects a route definition names, by route key (`'GET /v1/status'`). */
function definedRoutes() {
  const out = new Map<string, { body?: unknown; query?: unknown; response: unknown }>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, request, responses } = definition.route;
    const success = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status))?.[1];
    const json = (content: unknown) =>
      (content as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
    out.set(`${method.toUpperCase()} ${path}`, {
      body: json(request?.body?.content),
      query: request?.query,
      response: success && 'content' in success ? (json(success.content) ?? null) : null,
    });
  }
  return out;
}

describe('the typed client contract (@platform/host/api)', () => {
  it('names, for each route, the very schemas its definition validates and documents with', () => {
    const defined = definedRoutes();
    for (const [key, schemas] of Object.entries(hostApi)) {
      const route = defined.get(key);
      expect(route, `${key} is in the contract but no route defines it`).toBeDefined();
      expect(route?.response === schemas.response, `${key}: response schema`).toBe(true);
      expect(route?.body === ('body' in schemas ? schemas.body : undefined), `${key}: body schema`).toBe(
        true,
      );
      expect(route?.query === ('query' in schemas ? schemas.query : undefined), `${key}: query schema`).toBe(
        true,
      );
    }
  });

  it('covers every operator route under /v1 (public endpoints and assets are not JSON API calls)', () => {
    const missing = [...definedRoutes().keys()].filter(
      (key) => key.includes(' /v1/') && !key.includes('/assets/') && !(key in hostApi),
    );
    expect(missing).toEqual([]);
  });

  it('types calls by route key and answers with the route response', async () => {
    const api = createApiClient({ endpoint: base, token: ADMIN });
    const call = createHostApi<HostRoutes>((method, path, body) => api.request(method, path, body));
    const status = await call('GET /v1/status');
    expectTypeOf(status).toEqualTypeOf<HostStatus>();
    expect(status.version).toBe('contract-test');
    const { installations } = await call('GET /v1/installations', { query: { space: 'sp1' } });
    const [first] = installations;
    expect(first?.integration).toBe('webhook');
    const page = await call('GET /v1/installations/{id}/deliveries', {
      params: { id: first?.id ?? '' },
      query: { limit: 5 },
    });
    expect(page).toMatchObject({ deliveries: [], nextCursor: null, endpoint: { slow: false } });
    expect(await call('DELETE /v1/installations/{id}', { params: { id: first?.id ?? '' } })).toBeUndefined();
    // @ts-expect-error a path with placeholders needs its params
    await expect(call('GET /v1/installations/{id}')).rejects.toThrow(/path parameter "id" is missing/);
    // @ts-expect-error no such route
    expectTypeOf(call).toBeCallableWith('GET /v1/nope');
  });

  it('the OpenAPI document still describes every contract route (the render element as an object)', async () => {
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const key of Object.keys(hostApi)) {
      const [method = '', path = ''] = key.split(' ');
      expect(doc.paths[path]?.[method.toLowerCase()], key).toBeDefined();
    }
    const render = doc.paths['/v1/installations/{id}/render']?.post?.responses['200'];
    expect(JSON.stringify(render)).toContain(
      '"element":{"type":"object","description":"the rendered ContentKit element"}',
    );
  });

  it('builds paths with encoded params and defined query values only', () => {
    const key: HostRoute = 'GET /v1/installations/{id}/deliveries';
    expect(routeRequest(key, { params: { id: 'a/b c' }, query: { limit: 5, state: undefined } })).toEqual({
      method: 'GET',
      path: '/v1/installations/a%2Fb%20c/deliveries?limit=5',
    });
    expect(routeRequest('POST /v1/events', { body: { type: 'x' } })).toEqual({
      method: 'POST',
      path: '/v1/events',
      body: { type: 'x' },
    });
  });
});
