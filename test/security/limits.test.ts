import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Receiver,
  startReceiver,
  startTestHost,
  type TestHost,
} from '../../packages/host/test/helpers.js';
import { publishAndInstall } from './support.js';

/**
 * Limits per invocation (docs/security.md "Limits per invocation"), each set small here through its
 * operator setting: an integration that hits one gets a clear error naming integration, installation
 * and the limit, and another integration keeps answering meanwhile.
 */

const MiB = 1024 * 1024;
let t: TestHost;
let receiver: Receiver;
let healthy: string;

/** What the healthy integration answers. */
const HEALTHY = 'export default { async fetch() { return new Response("fine"); } };';

beforeAll(async () => {
  t = await startTestHost({
    PLATFORM_INVOCATION_TIMEOUT_MS: '3000',
    PLATFORM_INVOCATION_MAX_RESPONSE_BYTES: String(1 * MiB),
    PLATFORM_INVOCATION_MAX_REQUEST_BYTES: '4096',
    PLATFORM_INVOCATION_MAX_SUBREQUESTS: '5',
    PLATFORM_INVOCATION_MAX_LOG_BYTES: '1024',
    PLATFORM_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
  });
  receiver = await startReceiver();
  healthy = (await publishAndInstall(t, 'healthy', HEALTHY)).urls.publicEndpoint;
  expect(await (await fetch(`${healthy}/warm`)).text()).toBe('fine'); // loaded before any measurement
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** Calls the healthy integration every 20 ms until `until` settles; returns each call's latency (ms). */
async function probeWhile(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${healthy}/ping`);
    expect(await res.text()).toBe('fine');
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  return latencies;
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    calls: ms.length,
    p50: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
    max: Math.round(sorted.at(-1) ?? 0),
  };
};

describe('limits per invocation', () => {
  it('response body: 502 integration_response_too_large naming integration, installation and limit', async () => {
    // 64 MiB, streamed: the host stops reading at 1 MiB.
    const hog = await publishAndInstall(
      t,
      'big-answer',
      `export default { async fetch() {
        const chunk = new Uint8Array(1024 * 1024).fill(97);
        let n = 0;
        return new Response(new ReadableStream({ pull(c) { if (n++ < 64) c.enqueue(chunk); else c.close(); } }));
      } };`,
    );
    const call = fetch(`${hog.urls.publicEndpoint}/big`);
    const latencies = await probeWhile(call);
    const res = await call;
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(502);
    expect(body.error.code).toBe('integration_response_too_large');
    expect(body.error.message).toContain('big-answer@');
    expect(body.error.message).toContain(`installation ${hog.id}`);
    expect(body.error.message).toContain(`limit of ${1 * MiB} bytes`);
    expect(body.error.message).toContain('PLATFORM_INVOCATION_MAX_RESPONSE_BYTES');
    console.log('healthy integration while another hit the response limit:', summary(latencies));
    expect(await (await fetch(`${healthy}/after`)).text()).toBe('fine');
  });

  it('subrequests: the sixth fetch throws inside the integration, naming the limit; five reached the target', async () => {
    const before = receiver.received.length;
    const chatty = await publishAndInstall(
      t,
      'chatty',
      `export default { async fetch(request) {
        // only for the public endpoint's call, not for the installation's setup event
        const event = JSON.parse((await request.formData()).get('event'));
        if (event.type !== 'fetch') return new Response('{}');
        const outcomes = [];
        for (let i = 0; i < 8; i++) {
          try { const r = await fetch(${JSON.stringify(receiver.url)} + '/n' + i); outcomes.push(r.status); }
          catch (e) { outcomes.push(String(e && e.message || e)); }
        }
        return Response.json(outcomes);
      } };`,
    );
    const call = fetch(`${chatty.urls.publicEndpoint}/go`);
    const latencies = await probeWhile(call);
    const outcomes = (await (await call).json()) as Array<number | string>;
    expect(outcomes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    for (const refused of outcomes.slice(5)) {
      expect(refused).toMatch(/chatty@.* reached its limit of 5 subrequests per invocation/);
      expect(refused).toContain('PLATFORM_INVOCATION_MAX_SUBREQUESTS');
    }
    expect(receiver.received.slice(before).map((r) => r.url)).toEqual([
      '/hook/n0',
      '/hook/n1',
      '/hook/n2',
      '/hook/n3',
      '/hook/n4',
    ]);
    console.log('healthy integration while another hit the subrequest limit:', summary(latencies));
    // A new invocation has a budget of its own.
    const again = (await (await fetch(`${chatty.urls.publicEndpoint}/go`)).json()) as unknown[];
    expect(again.filter((o) => o === 200)).toHaveLength(5);
  });

  it('request body: 413 naming integration, installation and limit, declared or streamed', async () => {
    const echo = await publishAndInstall(
      t,
      'echo',
      'export default { async fetch(r) { return new Response("got it"); } };',
    );
    const declared = await fetch(`${echo.urls.publicEndpoint}/in`, {
      method: 'POST',
      body: 'x'.repeat(5000),
    });
    expect(declared.status).toBe(413);
    const message = ((await declared.json()) as { error: { message: string } }).error.message;
    expect(message).toContain(`integration echo, installation ${echo.id}`);
    expect(message).toContain('limit of 4096 bytes (PLATFORM_INVOCATION_MAX_REQUEST_BYTES)');
    const streamed = await fetch(`${echo.urls.publicEndpoint}/in`, {
      method: 'POST',
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(1000));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const small = await fetch(`${echo.urls.publicEndpoint}/in`, { method: 'POST', body: 'x'.repeat(4096) });
    expect(await small.text()).toBe('got it');
  });

  it('log bytes: keeps 1024 bytes of log text, then one line saying how many were dropped', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      level: 'info',
      message: `line ${i} ${'z'.repeat(90)}`,
      time: 1,
    }));
    const header = Buffer.from(JSON.stringify(lines)).toString('base64url');
    const noisy = await publishAndInstall(
      t,
      'noisy',
      `export default { async fetch() { return new Response('ok', { headers: { 'x-platform-logs': ${JSON.stringify(header)} } }); } };`,
    );
    expect(await (await fetch(`${noisy.urls.publicEndpoint}/log`)).text()).toBe('ok');
    const logs = await t.api<{ invocations: Array<{ lines: Array<{ level: string; message: string }> }> }>(
      'GET',
      `/v1/installations/${noisy.id}/logs`,
    );
    const kept = logs.body.invocations[0]?.lines ?? [];
    const text = kept.slice(0, -1).reduce((n, l) => n + Buffer.byteLength(l.message), 0);
    expect(text).toBeLessThanOrEqual(1024);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.at(-1)).toMatchObject({ level: 'warn' });
    expect(kept.at(-1)?.message).toMatch(
      /^\d+ log lines dropped: over the limit of 1024 bytes .*PLATFORM_INVOCATION_MAX_LOG_BYTES/,
    );
  });

  it('time: a busy loop is cut at the time limit while another integration keeps answering', async () => {
    const spinner = await publishAndInstall(
      t,
      'spinner',
      'export default { async fetch() { for (;;) {} } };',
    );
    const started = performance.now();
    const call = fetch(`${spinner.urls.publicEndpoint}/spin`);
    const latencies = await probeWhile(call);
    const res = await call;
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('integration_timeout');
    console.log('healthy integration while another spun to the time limit:', {
      ...summary(latencies),
      spinnerMs: Math.round(performance.now() - started),
    });
  }, 30_000);
});
