import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import type { HostEnv } from './app-types.js';
import { nodeJsonBody } from './node-body.js';

let server: ReturnType<typeof serve>;
let base: string;

beforeAll(async () => {
  const app = new Hono<HostEnv>();
  app.use('*', nodeJsonBody({ maxBytes: 1000, skip: (path) => path.startsWith('/raw') }));
  app.post('/json', async (c) => {
    // Read from the cache the middleware filled (not from a WHATWG Request built by the adapter).
    const cached = 'text' in c.req.bodyCache;
    return c.json({ cached, body: await c.req.json() });
  });
  app.post('/raw', async (c) =>
    c.json({ cached: 'text' in c.req.bodyCache, bytes: (await c.req.arrayBuffer()).byteLength }),
  );
  app.post('/text', async (c) => c.json({ cached: 'text' in c.req.bodyCache, text: await c.req.text() }));
  app.onError((error, c) =>
    error instanceof HttpError
      ? c.json(error.toJSON(), error.status as 413)
      : c.json({ error: String(error) }, 500),
  );
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, type = 'application/json') =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

it('reads a JSON body from the Node stream into the body cache, UTF-8 intact', async () => {
  const res = await post('/json', JSON.stringify({ word: 'héllo ✓', n: 1 }));
  expect(await res.json()).toEqual({ cached: true, body: { word: 'héllo ✓', n: 1 } });
  const typed = await post('/json', '{"a":[1,2]}', 'application/vnd.api+json; charset=utf-8');
  expect(await typed.json()).toEqual({ cached: true, body: { a: [1, 2] } });
});

it('leaves other content types and skipped paths to the adapter (raw bytes intact)', async () => {
  expect(await (await post('/text', 'plain words', 'text/plain')).json()).toEqual({
    cached: false,
    text: 'plain words',
  });
  expect(await (await post('/raw', '{"x":1}')).json()).toEqual({ cached: false, bytes: 7 });
});

it('refuses a body over the limit with 413, declared or streamed without a length', async () => {
  const declared = await post('/json', JSON.stringify({ pad: 'x'.repeat(2000) }));
  expect(declared.status).toBe(413);
  expect(await declared.json()).toEqual({
    error: { code: 'body_too_large', message: 'JSON request bodies are limited to 1000 bytes.' },
  });
  // Chunked (no content-length): counted while reading.
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    for (let i = 0; i < 5; i++) req.write(`"${'y'.repeat(400)}"`);
    req.end();
  });
  expect(status).toBe(413);
  // The server still answers afterwards.
  expect((await post('/json', '{"ok":true}')).status).toBe(200);
});
