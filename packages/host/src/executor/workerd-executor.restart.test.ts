import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorError } from './errors.js';
import { collectingLogger, startServer } from './test-support.js';
import type { Deployment } from './types.js';
import { WorkerdExecutor } from './workerd-executor.js';

// No outbound gate configured on this executor: integrations have no network at all.
const { logger, entries } = collectingLogger();
const executor = new WorkerdExecutor({ logger, pingTimeoutMs: 500 });
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  server = await startServer(() => ({ status: 200, body: 'reached' }));
  await executor.ready();
});

afterAll(async () => {
  await executor.close();
  await server.close();
});

const post = (url = 'http://integration/v1') => new Request(url, { method: 'POST', body: '{}' });
const healthy: Deployment = {
  id: 'healthy@1.0.0#1',
  script: `export default { async fetch(request) {
    const ms = Number(new URL(request.url).searchParams.get('sleep') ?? '0');
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    return new Response('healthy');
  } }`,
};
const busy: Deployment = {
  id: 'busy@1.0.0#1',
  script: `export default { fetch() { while (true) {} } }`,
};

describe('WorkerdExecutor without a gate, and its restart on a hang', () => {
  it('gives integration code no network when no gate is configured', async () => {
    const caller: Deployment = {
      id: 'nonet@1.0.0#1',
      script: `export default { async fetch(request) {
        try { await fetch(await request.text()); return new Response('reached the network'); }
        catch (e) { return new Response('blocked: ' + e.name); }
      } }`,
    };
    const { response } = await executor.invoke(
      caller,
      new Request('http://integration/v1', { method: 'POST', body: server.url }),
    );
    expect(await response.text()).toMatch(/^blocked: /);
    expect(server.hits()).toBe(0);
  });

  it('restarts a workerd hung by a busy loop once; bystanders in flight are retried on the new process; later calls work', async () => {
    expect(await (await executor.invoke(healthy, post())).response.text()).toBe('healthy');
    const inFlight = executor
      .invoke(healthy, post('http://integration/v1?sleep=3000'), { timeoutMs: 20_000 })
      .catch((e: unknown) => e as ExecutorError);
    await new Promise((r) => setTimeout(r, 50));

    const timeoutMs = 500;
    const t0 = performance.now();
    const [first, second] = await Promise.all([
      executor.invoke(busy, post(), { timeoutMs }).catch((e: unknown) => e as ExecutorError),
      executor.invoke(busy, post(), { timeoutMs }).catch((e: unknown) => e as ExecutorError),
    ]);
    expect((first as ExecutorError).code).toBe('timeout');
    expect((second as ExecutorError).code).toBe('timeout');

    const after = await executor.invoke(healthy, post(), { timeoutMs: 10_000 });
    const recoveredMs = performance.now() - t0;
    expect(await after.response.text()).toBe('healthy');
    console.log(
      `[executor] busy loop -> healthy again after ${recoveredMs.toFixed(0)} ms ` +
        `(timeout ${timeoutMs} ms + probe <= 500 ms + restart)`,
    );
    expect(recoveredMs).toBeLessThan(timeoutMs + 500 + 5_000);

    // The healthy call was cut short by the restart, not by its own code: it is retried once.
    const retried = await inFlight;
    expect(retried).not.toBeInstanceOf(ExecutorError);
    expect(await (retried as { response: Response }).response.text()).toBe('healthy');
    expect(executor.restartCount).toBe(1);
    const restartLog = entries.find((e) => e.msg === 'workerd restarted');
    expect(restartLog?.fields.restartMs).toEqual(expect.any(Number));
    console.log(`[executor] workerd restart (dispose + start): ${String(restartLog?.fields.restartMs)} ms`);
    expect(entries.some((e) => e.level === 'warn' && e.fields.suspectDeploymentId === busy.id)).toBe(true);

    // and keeps working
    expect(await (await executor.invoke(healthy, post())).response.text()).toBe('healthy');
  });
});
