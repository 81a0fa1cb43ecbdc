import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutorError } from './errors.js';
import { RemoteHttpExecutor, targetUrl } from './remote-http-executor.js';
import { startServer } from './test-support.js';

let server: Awaited<ReturnType<typeof startServer>>;
const seen: { method?: string; url?: string; body?: Buffer; signature?: string } = {};

beforeAll(async () => {
  server = await startServer((request, body) => {
    seen.method = request.method;
    seen.url = request.url;
    seen.body = body;
    seen.signature = String(request.headers['x-platform-signature']);
    if (request.url?.includes('slow')) return { status: 200, body: 'late', delayMs: 2_000 };
    return {
      status: 202,
      body: Buffer.from(body).reverse(),
      headers: { 'x-platform-logs': 'abc', 'content-type': 'application/octet-stream' },
    };
  });
});

afterAll(async () => {
  await server.close();
});

const deployment = { id: 'remote@1.0.0', script: '' };

describe('RemoteHttpExecutor', () => {
  it('posts the envelope to the base URL through the injected fetch', async () => {
    const fetched: string[] = [];
    const executor = new RemoteHttpExecutor({
      baseUrl: `${server.url}/integrations/hello/`,
      fetch: (request) => {
        fetched.push(request.url);
        return fetch(request);
      },
    });
    const body = new Uint8Array(300).map((_, i) => i % 256);
    const { response } = await executor.invoke(
      deployment,
      new Request('http://integration/v1?x=1', {
        method: 'POST',
        body,
        headers: { 'x-platform-signature': 't=1,v1=ff' },
      }),
    );
    expect(fetched).toEqual([`${server.url}/integrations/hello/v1?x=1`]);
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/integrations/hello/v1?x=1');
    expect(seen.signature).toBe('t=1,v1=ff');
    expect([...(seen.body ?? [])]).toEqual([...body]);
    expect(response.status).toBe(202);
    expect(response.headers.get('x-platform-logs')).toBe('abc');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...body].reverse());
    await executor.close();
  });

  it('maps a refusal of the address policy to unreachable and a slow server to timeout', async () => {
    const refusing = new RemoteHttpExecutor({
      baseUrl: server.url,
      fetch: async () => {
        throw new Error('address 127.0.0.1 is not allowed');
      },
    });
    const refused = (await refusing
      .invoke(deployment, new Request('http://i/v1', { method: 'POST', body: 'x' }))
      .catch((e: unknown) => e)) as ExecutorError;
    expect(refused.code).toBe('unreachable');
    expect(refused.detail).toMatch(/not allowed/);

    const slow = new RemoteHttpExecutor({ baseUrl: () => `${server.url}/slow`, fetch: (r) => fetch(r) });
    const t0 = performance.now();
    const timedOut = (await slow
      .invoke(deployment, new Request('http://i/v1', { method: 'POST', body: 'x' }), { timeoutMs: 200 })
      .catch((e: unknown) => e)) as ExecutorError;
    expect(timedOut.code).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(1_500);

    const closedPort = new RemoteHttpExecutor({ baseUrl: 'http://127.0.0.1:1', fetch: (r) => fetch(r) });
    const unreachable = (await closedPort
      .invoke(deployment, new Request('http://i/v1', { method: 'POST' }))
      .catch((e: unknown) => e)) as ExecutorError;
    expect(unreachable.code).toBe('unreachable');
  });

  it('joins base URL and path, and rejects a bad base URL', () => {
    expect(targetUrl('https://x.example/a/', '/v1?q=1').href).toBe('https://x.example/a/v1?q=1');
    expect(targetUrl('https://x.example', '/v1').href).toBe('https://x.example/v1');
    expect(() => new RemoteHttpExecutor({ baseUrl: 'not a url', fetch })).toThrow(/absolute http/);
    expect(() => new RemoteHttpExecutor({ baseUrl: 'ftp://x', fetch })).toThrow(/http or https/);
  });
});
