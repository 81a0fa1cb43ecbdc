import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { tokenMatcher } from '../auth.js';
import type { HostContext } from '../services/context.js';
import { installSpaceWebhook, openTempStorage, testContext } from '../services/test-support.js';
import { type Storage, StorageError } from '../storage/index.js';
import type { createApi } from './app.js';
import { eventFastPath } from './event-fast-path.js';
import { apiWithoutIntegrations } from './test-support.js';

const ADMIN = 'pat_fast_path_admin_token';
let dir: string;
let storage: Storage;
let ctx: HostContext;
let app: ReturnType<typeof createApi>;
let server: Server;
let base: string;
/** Requests the fast path left to the Hono app. */
let fellThrough = 0;
let installationToken: string;
let installationId: string;

beforeAll(async () => {
  ({ dir, storage } = await openTempStorage('fast-path-'));
  ctx = await testContext(dir, storage);
  const installation = await installSpaceWebhook(storage, 'sp1');
  installationId = installation.id;
  installationToken = ctx.tokens.issue(installation.id);
  app = apiWithoutIntegrations(ctx, ADMIN, 'test');
  // The host's composition (host.ts): the fast path first, the Hono app for everything else.
  const fast = eventFastPath(ctx, tokenMatcher(ADMIN), 2000);
  const hono = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  server = createServer((req, res) => {
    if (fast(req, res)) return;
    fellThrough++;
    void hono(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  fellThrough = 0;
});

const headers = (token = ADMIN, type = 'application/json') => ({
  authorization: `Bearer ${token}`,
  'content-type': type,
});

/** The same request through the Node server (fast path first) and through the Hono app alone. */
async function both(body: string, init: { token?: string; type?: string; path?: string } = {}) {
  const request = { method: 'POST', headers: headers(init.token, init.type), body };
  const path = init.path ?? '/v1/events';
  const viaServer = await fetch(`${base}${path}`, request);
  const viaHono = await app.request(path, request);
  return {
    server: {
      status: viaServer.status,
      type: viaServer.headers.get('content-type'),
      body: await viaServer.json(),
    },
    hono: { status: viaHono.status, type: viaHono.headers.get('content-type'), body: await viaHono.json() },
  };
}

const event = (eventId?: string) =>
  JSON.stringify({
    type: 'space_content_updated',
    spaceId: 'sp1',
    revisionId: 'r1',
    ...(eventId ? { eventId } : {}),
  });

it('accepts an event on the fast path: 202 with its id, stored with its delivery, idempotent', async () => {
  const res = await fetch(`${base}/v1/events`, {
    method: 'POST',
    headers: headers(),
    body: event('evt_fast_1'),
  });
  expect(res.status).toBe(202);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(await res.json()).toEqual({ eventId: 'evt_fast_1' });
  expect(fellThrough).toBe(0);
  const stored = await storage.events.get('evt_fast_1');
  expect(stored?.type).toBe('space_content_updated');
  const { items } = await storage.jobs.listDeliveries(installationId);
  expect(items.filter((job) => job.eventId === 'evt_fast_1').map((job) => job.state)).toEqual(['queued']);

  const again = await fetch(`${base}/v1/events`, {
    method: 'POST',
    headers: headers(),
    body: event('evt_fast_1'),
  });
  expect(await again.json()).toEqual({ eventId: 'evt_fast_1', duplicate: true });
  expect(fellThrough).toBe(0);
});

it('answers exactly as the Hono route does: assigned id, duplicate, invalid JSON, invalid event', async () => {
  const fresh = await both(event());
  expect(fresh.server.status).toBe(202);
  expect(fresh.server.body.eventId).toMatch(/^evt_/);
  expect(Object.keys(fresh.server.body)).toEqual(Object.keys(fresh.hono.body));

  const duplicate = await both(event('evt_both'));
  // The first of the pair stored it: the Hono route sees a duplicate; both answers agree afterwards.
  expect(duplicate.server).toEqual({ status: 202, type: 'application/json', body: { eventId: 'evt_both' } });
  expect(duplicate.hono.body).toEqual({ eventId: 'evt_both', duplicate: true });

  for (const body of [
    '{"type": "space_content_updated",',
    '',
    '[]',
    '{"type":"space_content_updated","spaceId":"sp1"}',
  ]) {
    const answers = await both(body);
    expect(answers.server.status).toBe(400);
    expect(answers.server).toEqual(answers.hono);
  }
  expect(fellThrough).toBe(0);
  const missing = await both('{"type":"space_content_updated","spaceId":"sp1"}');
  expect(missing.server.body.error.code).toBe('invalid_request');
  expect(missing.server.body.error.message).toContain('body.revisionId');
});

it('refuses a body over its limit with 413 and reads no further', async () => {
  const res = await fetch(`${base}/v1/events`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ type: 'space_content_updated', spaceId: 'sp1', revisionId: 'x'.repeat(3000) }),
  });
  expect(res.status).toBe(413);
  expect((await res.json()).error.code).toBe('body_too_large');
  expect(fellThrough).toBe(0);
});

it('leaves every other request to the Hono app, which answers as before', async () => {
  const noToken = await fetch(`${base}/v1/events`, { method: 'POST', body: event() });
  expect(noToken.status).toBe(401);
  const installation = await both(event(), { token: installationToken });
  expect(installation.server).toEqual(installation.hono);
  expect(installation.server.status).toBe(403);
  const wrong = await both(event(), { token: 'pat_wrong' });
  expect(wrong.server.status).toBe(401);
  const text = await fetch(`${base}/v1/events`, {
    method: 'POST',
    headers: headers(ADMIN, 'text/plain'),
    body: event(),
  });
  expect(text.status).toBe(415);
  const query = await fetch(`${base}/v1/events?source=test`, {
    method: 'POST',
    headers: headers(),
    body: event('evt_query'),
  });
  expect(query.status).toBe(202);
  expect(await query.json()).toEqual({ eventId: 'evt_query' });
  const get = await fetch(`${base}/v1/events`, { headers: headers() });
  expect(get.status).toBe(404);
  expect(fellThrough).toBe(6);
});

it('a database that cannot take the event now: 503 with Retry-After, the same answer as the Hono route', async () => {
  // The storage's own failure (a PostgreSQL that is away, a SQLite locked past its timeout), injected.
  const write = vi
    .spyOn(ctx.storage.events, 'insertWithJobs')
    .mockRejectedValue(new StorageError('unavailable', 'PostgreSQL: connect ECONNREFUSED 127.0.0.1:5432'));
  try {
    const request = { method: 'POST', headers: headers(), body: event('evt_unavailable') };
    const viaServer = await fetch(`${base}/v1/events`, request);
    const viaHono = await app.request('/v1/events', request);
    for (const answer of [viaServer, viaHono]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const body = await viaServer.json();
    expect(body).toEqual(await viaHono.json());
    expect(body.error.code).toBe('unavailable');
    expect(fellThrough).toBe(0);
  } finally {
    write.mockRestore();
  }
  expect(await storage.events.get('evt_unavailable')).toBeNull(); // nothing was stored
});
