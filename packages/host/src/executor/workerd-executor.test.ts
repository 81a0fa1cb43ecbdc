import { Miniflare } from 'miniflare';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorError } from './errors.js';
import { DEPLOYMENT_HEADER, loaderWorkerSource } from './loader-source.js';
import { collectingLogger, median, startServer } from './test-support.js';
import type { Deployment } from './types.js';
import { WorkerdExecutor } from './workerd-executor.js';

const { logger, entries } = collectingLogger();
let allowed: Awaited<ReturnType<typeof startServer>>;
let forbidden: Awaited<ReturnType<typeof startServer>>;
let executor: WorkerdExecutor;

beforeAll(async () => {
  allowed = await startServer(() => ({ status: 200, body: 'hello from the permitted server' }));
  forbidden = await startServer(() => ({ status: 200, body: 'you should never see this' }));
  // The test's address policy: only the permitted server's port on loopback.
  const outbound = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.hostname !== '127.0.0.1' || url.port !== String(allowed.port)) {
      throw new Error(`address ${url.host} is not allowed`);
    }
    return fetch(request);
  };
  executor = new WorkerdExecutor({ outbound, logger, defaultTimeoutMs: 5_000 });
  await executor.ready();
});

afterAll(async () => {
  await executor.close();
  await allowed.close();
  await forbidden.close();
});

const post = (body?: BodyInit, headers?: Record<string, string>) =>
  new Request('http://integration/v1', { method: 'POST', body, headers });

const text = (script: string, id: string): Deployment => ({ id, script });

describe('WorkerdExecutor', () => {
  it('serves two deployments from one workerd and swaps a version live without dropping in-flight calls', async () => {
    const a1 = text(`export default { fetch: () => new Response('a v1') }`, 'a@1.0.0#1');
    const a2 = text(`export default { fetch: () => new Response('a v2') }`, 'a@2.0.0#2');
    const slowB = text(
      `let calls = 0;
       export default { async fetch(request) {
         calls += 1;
         const ms = Number(new URL(request.url).searchParams.get('sleep') ?? '0');
         await new Promise((r) => setTimeout(r, ms));
         return new Response('b call ' + calls);
       } }`,
      'b@1.0.0#1',
    );
    expect(await (await executor.invoke(a1, post())).response.text()).toBe('a v1');
    expect(await (await executor.invoke(slowB, post())).response.text()).toBe('b call 1');

    const inFlight = executor.invoke(
      slowB,
      new Request('http://integration/v1?sleep=800', { method: 'POST' }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    const v2 = await executor.invoke(a2, post());
    const deployToLiveMs = performance.now() - t0;
    expect(await v2.response.text()).toBe('a v2');
    console.log(
      `[executor] deploy-to-live (first response of a new version): ${deployToLiveMs.toFixed(1)} ms`,
    );

    const b = await inFlight;
    expect(b.response.status).toBe(200);
    expect(await b.response.text()).toBe('b call 2'); // same isolate: module state survived the deploy
    expect(b.durationMs).toBeGreaterThanOrEqual(700);
    expect(await (await executor.invoke(a1, post())).response.text()).toBe('a v1'); // old version still addressable
    expect(executor.restartCount).toBe(0);
  });

  it('passes method, headers, raw binary body, status and response headers through unchanged', async () => {
    const echo = text(
      `export default { async fetch(request) {
         const bytes = new Uint8Array(await request.arrayBuffer());
         const seen = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers) };
         const headers = new Headers({ 'content-type': 'application/octet-stream', 'x-seen': btoa(JSON.stringify(seen)),
           'X-Platform-Logs': 'W3sibGV2ZWwiOiJpbmZvIn1d' });
         headers.append('set-cookie', 'a=1');
         headers.append('set-cookie', 'b=2');
         return new Response(bytes.slice().reverse(), { status: 207, headers });
       } }`,
      'echo@1.0.0#1',
    );
    const body = new Uint8Array(512).map((_, i) => i % 256);
    const { response } = await executor.invoke(
      echo,
      new Request('http://integration/v1?x=1&y=%20', {
        method: 'PUT',
        body,
        headers: {
          'x-custom': 'Value With Spaces',
          'content-type': 'multipart/form-data; boundary=zz',
          'x-platform-signature': 't=1,v1=ab',
        },
      }),
    );
    expect(response.status).toBe(207);
    expect(response.headers.get('x-platform-logs')).toBe('W3sibGV2ZWwiOiJpbmZvIn1d');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const returned = new Uint8Array(await response.arrayBuffer());
    expect([...returned]).toEqual([...body].reverse());
    const seen = JSON.parse(atob(response.headers.get('x-seen') ?? '')) as {
      method: string;
      url: string;
      headers: Record<string, string>;
    };
    expect(seen.method).toBe('PUT');
    expect(new URL(seen.url).pathname + new URL(seen.url).search).toBe('/v1?x=1&y=%20');
    expect(seen.headers['x-custom']).toBe('Value With Spaces');
    expect(seen.headers['content-type']).toBe('multipart/form-data; boundary=zz');
    expect(seen.headers['x-platform-signature']).toBe('t=1,v1=ab');
    expect(seen.headers[DEPLOYMENT_HEADER]).toBeUndefined();
  });

  it('reports a bundle that does not load as load_failed with workerd’s message, without the source', async () => {
    const broken = text(`const SECRET_SOURCE_MARKER = 1; export default { fetch( {`, 'broken@1.0.0#1');
    const error = await executor.invoke(broken, post()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutorError);
    expect((error as ExecutorError).code).toBe('load_failed');
    expect((error as ExecutorError).message).toMatch(/SyntaxError/);
    expect((error as ExecutorError).message).not.toContain('SECRET_SOURCE_MARKER');

    const noFetch = text(`export default { hello: 1 }`, 'nofetch@1.0.0#1');
    const error2 = await executor.invoke(noFetch, post()).catch((e: unknown) => e);
    expect((error2 as ExecutorError).code).toBe('load_failed');
    expect((error2 as ExecutorError).message).toMatch(/no default export with a fetch/);

    const throwsAtTop = text(`throw new Error('top-level failure'); export default {}`, 'top@1.0.0#1');
    const error3 = await executor.invoke(throwsAtTop, post()).catch((e: unknown) => e);
    expect((error3 as ExecutorError).code).toBe('load_failed');
    expect((error3 as ExecutorError).message).toMatch(/top-level failure/);
  });

  it('reports an uncaught exception as crashed without putting env secrets in the message', async () => {
    const crashing: Deployment = {
      id: 'crash@1.0.0#1',
      script: `export default { fetch(request, env) { throw new Error('token is ' + env.TOKEN); } }`,
      env: { TOKEN: 'sk_live_very_secret' },
    };
    const error = (await executor.invoke(crashing, post()).catch((e: unknown) => e)) as ExecutorError;
    expect(error.code).toBe('crashed');
    expect(error.message).not.toContain('sk_live_very_secret');
    expect(error.detail).toContain('Error: token is'); // for the author's invocation log
  });

  it('does not let integration code forge the loader error marker', async () => {
    const forger = text(
      `export default { fetch: () => new Response('fine', { headers: { 'x-executor-error': 'crashed' } }) }`,
      'forger@1.0.0#1',
    );
    const { response } = await executor.invoke(forger, post());
    expect(await response.text()).toBe('fine');
    expect(response.headers.has('x-executor-error')).toBe(false);
  });

  it('reports a promise that can never resolve as crashed (workerd detects it)', async () => {
    const stuck = text(`export default { fetch: () => new Promise(() => {}) }`, 'stuck@1.0.0#1');
    const error = (await executor.invoke(stuck, post()).catch((e: unknown) => e)) as ExecutorError;
    expect(error.code).toBe('crashed');
    expect(error.detail).toMatch(/hung/);
  });

  it('times out a call that never answers, without restarting a healthy workerd', async () => {
    const never = text(
      `export default { fetch: () => new Promise((r) => setTimeout(r, 60_000)) }`,
      'never@1.0.0#1',
    );
    const t0 = performance.now();
    const error = (await executor
      .invoke(never, post(), { timeoutMs: 300 })
      .catch((e: unknown) => e)) as ExecutorError;
    expect(error.code).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(2_000);
    const ok = text(`export default { fetch: () => new Response('still here') }`, 'ok@1.0.0#1');
    expect(await (await executor.invoke(ok, post())).response.text()).toBe('still here');
    await new Promise((r) => setTimeout(r, 50)); // let the health probe finish
    expect(executor.restartCount).toBe(0);
  });

  it('rejects with the caller’s reason when the caller aborts', async () => {
    const never = text(
      `export default { fetch: () => new Promise((r) => setTimeout(r, 60_000)) }`,
      'never@1.0.0#1',
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    const error = await executor
      .invoke(never, post(), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('caller gave up');
  });

  it('sends outbound requests only through the gate: permitted target reached, loopback target refused', async () => {
    const caller = text(
      `export default { async fetch(request) {
         const target = await request.text();
         try {
           const r = await fetch(target, { method: 'POST', body: 'ping' });
           return new Response('status ' + r.status + ': ' + await r.text());
         } catch (e) { return new Response('threw ' + e.name + ': ' + e.message, { status: 502 }); }
       } }`,
      'caller@1.0.0#1',
    );
    const ok = await executor.invoke(caller, post(`${allowed.url}/x`));
    expect(await ok.response.text()).toBe('status 200: hello from the permitted server');
    expect(allowed.hits()).toBe(1);

    const refused = await executor.invoke(caller, post(`${forbidden.url}/x`));
    expect(refused.response.status).toBe(502);
    expect(await refused.response.text()).toMatch(
      /^threw TypeError: .*refused: address 127\.0\.0\.1:\d+ is not allowed/,
    );
    expect(forbidden.hits()).toBe(0);
    expect(entries.some((e) => e.fields.source === 'outbound-gate' && e.level === 'warn')).toBe(true);
  });

  it('captures workerd stdout lines into the host logger', async () => {
    const chatty = text(
      `export default { fetch() { console.log('chatty-marker-4711'); return new Response('ok'); } }`,
      'chatty@1.0.0#1',
    );
    await executor.invoke(chatty, post());
    const deadline = Date.now() + 2_000;
    while (!entries.some((e) => e.msg.includes('chatty-marker-4711')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const line = entries.find((e) => e.msg.includes('chatty-marker-4711'));
    expect(line?.fields).toMatchObject({ source: 'workerd', stream: 'stdout' });
  });

  it('measures invoke latency: executor (undici) vs Miniflare dispatchFetch', async () => {
    const hello = text(`export default { fetch: () => new Response('hi') }`, 'hello@1.0.0#bench');
    const N = 200;
    // Same loader worker in a second Miniflare, to compare both transports on equal terms;
    // the three are interleaved so that load from other test files hits them alike.
    const mf = new Miniflare({
      modules: true,
      script: loaderWorkerSource({ compatibilityDate: '2025-09-01', compatibilityFlags: [] }),
      compatibilityDate: '2025-09-01',
      cf: false,
      host: '127.0.0.1',
      port: 0,
      workerLoaders: { LOADER: {} },
      serviceBindings: {
        SOURCE: () => new Response(JSON.stringify({ script: hello.script, vars: {} })),
      },
      handleRuntimeStdio: () => {},
    });
    try {
      const url = await mf.ready;
      const viaExecutor: number[] = [];
      const viaUndici: number[] = [];
      const viaDispatch: number[] = [];
      for (let i = 0; i < N; i += 1) {
        let t = performance.now();
        const { response } = await executor.invoke(hello, post('x'));
        await response.arrayBuffer();
        viaExecutor.push(performance.now() - t);
        t = performance.now();
        const r1 = await undiciRequest(new URL('/v1', url), {
          method: 'POST',
          body: 'x',
          headers: { [DEPLOYMENT_HEADER]: 'k' },
        });
        await r1.body.text();
        viaUndici.push(performance.now() - t);
        t = performance.now();
        const r2 = await mf.dispatchFetch('http://integration/v1', {
          method: 'POST',
          body: 'x',
          headers: { [DEPLOYMENT_HEADER]: 'k' },
        });
        await r2.text();
        viaDispatch.push(performance.now() - t);
      }
      const figures = {
        executorP50: median(viaExecutor),
        undiciP50: median(viaUndici),
        dispatchFetchP50: median(viaDispatch),
      };
      console.log(
        `[executor] invoke p50 over ${N} sequential calls: executor.invoke ${figures.executorP50.toFixed(2)} ms, ` +
          `raw undici ${figures.undiciP50.toFixed(2)} ms, mf.dispatchFetch ${figures.dispatchFetchP50.toFixed(2)} ms`,
      );
      expect(figures.executorP50).toBeLessThan(50);
    } finally {
      await mf.dispose();
    }
  });
});
