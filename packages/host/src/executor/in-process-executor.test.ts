import { describe, expect, it } from 'vitest';
import { ExecutorError } from './errors.js';
import { type FetchModule, InProcessExecutor } from './in-process-executor.js';
import { collectingLogger } from './test-support.js';

const post = (body = 'hello') => new Request('http://integration/v1', { method: 'POST', body });
const deployment = (id: string, env?: Record<string, string>) => ({ id, script: '', env });

describe('InProcessExecutor', () => {
  it('calls the module directly with request and env, and awaits waitUntil work on close', async () => {
    const { logger, entries } = collectingLogger();
    const done: string[] = [];
    const module: FetchModule = {
      async fetch(request, env, ctx) {
        ctx.waitUntil(
          new Promise<void>((r) =>
            setTimeout(() => {
              done.push('late work');
              r();
            }, 100),
          ),
        );
        ctx.waitUntil(Promise.reject(new Error('background failure')));
        return new Response(`${await request.text()} ${env.GREETING}`, {
          status: 201,
          headers: { 'x-a': '1' },
        });
      },
    };
    const executor = new InProcessExecutor({ modules: { 'first@1': module }, logger });
    const { response, durationMs } = await executor.invoke(
      deployment('first@1', { GREETING: 'world' }),
      post(),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('1');
    expect(await response.text()).toBe('hello world');
    expect(durationMs).toBeGreaterThanOrEqual(0);
    expect(done).toEqual([]);
    expect(executor.pendingWaitUntil).toBeGreaterThan(0);
    await executor.close();
    expect(done).toEqual(['late work']);
    expect(executor.pendingWaitUntil).toBe(0);
    expect(entries.some((e) => e.level === 'error' && e.fields.reason === 'background failure')).toBe(true);
    const closed = (await executor
      .invoke(deployment('first@1'), post())
      .catch((e: unknown) => e)) as ExecutorError;
    expect(closed.code).toBe('unreachable');
  });

  it('loads a module through a loader function once', async () => {
    let loads = 0;
    const executor = new InProcessExecutor({
      modules: new Map([
        [
          'lazy@1',
          async () => {
            loads += 1;
            return { fetch: () => new Response('lazy') };
          },
        ],
      ]),
    });
    expect(await (await executor.invoke(deployment('lazy@1'), post())).response.text()).toBe('lazy');
    expect(await (await executor.invoke(deployment('lazy@1'), post())).response.text()).toBe('lazy');
    expect(loads).toBe(1);
    await executor.close();
  });

  it('fails with typed errors: load_failed, crashed, timeout', async () => {
    const executor = new InProcessExecutor({
      modules: {
        'nofetch@1': { hello: 1 } as unknown as FetchModule,
        'badloader@1': () => {
          throw new Error('cannot import');
        },
        'crash@1': {
          fetch: (_r, env) => {
            throw new Error(`secret ${env.TOKEN}`);
          },
        },
        'slow@1': {
          fetch: (request) =>
            new Promise<Response>((resolve) => {
              const timer = setTimeout(() => resolve(new Response('late')), 5_000);
              request.signal.addEventListener('abort', () => clearTimeout(timer));
            }),
        },
      },
    });
    const code = async (id: string, timeoutMs?: number) => {
      const error = await executor
        .invoke(deployment(id, { TOKEN: 'tok_secret' }), post(), { timeoutMs })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExecutorError);
      expect((error as ExecutorError).message).not.toContain('tok_secret');
      return (error as ExecutorError).code;
    };
    expect(await code('missing@1')).toBe('load_failed');
    expect(await code('nofetch@1')).toBe('load_failed');
    expect(await code('badloader@1')).toBe('load_failed');
    expect(await code('crash@1')).toBe('crashed');
    const t0 = performance.now();
    expect(await code('slow@1', 100)).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(1_000);
    await executor.close();
  });

  it('rejects a bad timeout with a clear message', async () => {
    const executor = new InProcessExecutor({ modules: {} });
    await expect(executor.invoke(deployment('x@1'), post(), { timeoutMs: 0 })).rejects.toThrow(
      /positive number/,
    );
    expect(() => new InProcessExecutor({ modules: {}, defaultTimeoutMs: Number.NaN })).toThrow(RangeError);
  });
});
