import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDatabase, type TestDatabase } from './backends.js';
import { cliDeliveriesList, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

interface Delivery {
  id: string;
  state: string;
  nextAttemptAt?: string;
  attempts: Array<{ statusCode?: number; startedAt: string; durationMs: number }>;
}

/** Late by at most this plus the longest event-loop stall of the test (as webhooks.suite.ts does). */
const GROSS_MS = 500;

/**
 * Retry schedules (docs/contracts.md "Retry schedules"), end to end on a real host and real receivers:
 * validated on save, the windows of a schedule checked at the receiver, `Retry-After` honoured within its
 * bounds, and a retry due later survives a restart of the host and shows "next attempt at" in the API and
 * the CLI.
 */
describe.each(BACKENDS)('retry schedules (%s)', (backend) => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  let t: TestHost;
  const receivers: Receiver[] = [];
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  const env = () => ({
    PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
    PLATFORM_DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-schedules-'));
    if (backend === 'postgres') database = await createTestDatabase();
    t = await startTestHost(env(), backend);
    stalls.enable();
  });
  afterAll(async () => {
    stalls.disable();
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function install(url: string, space: string, retrySchedule: string): Promise<string> {
    const res = await t.api<{ id: string; status: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url, space_content_updated: true, retry_schedule: retrySchedule },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('active');
    await t.api('POST', '/v1/events', { type: 'space_content_updated', spaceId: space, revisionId: 'r' });
    return res.body.id;
  }

  async function deliveries(id: string): Promise<Delivery[]> {
    const res = await t.api<{ deliveries: Delivery[] }>('GET', `/v1/installations/${id}/deliveries`);
    expect(res.status).toBe(200);
    return res.body.deliveries;
  }

  /** The installation's delivery once it has two attempts, and how long after the second ended the next is due. */
  async function afterSecondAttempt(id: string): Promise<{ delivery: Delivery; next: number }> {
    await expect.poll(async () => (await deliveries(id))[0]?.attempts.length, { timeout: 5_000 }).toBe(2);
    const [delivery] = await deliveries(id);
    const end = Date.parse(delivery!.attempts[1]!.startedAt) + delivery!.attempts[1]!.durationMs;
    return { delivery: delivery!, next: Date.parse(delivery!.nextAttemptAt!) - end };
  }

  /** The receiver-side gaps between consecutive arrivals are inside `windows`, late by at most GROSS_MS + stalls. */
  function expectWindows(r: Receiver, windows: ReadonlyArray<readonly [number, number]>) {
    const at = r.received.map((x) => x.at);
    const stall = Math.round(stalls.max / 1e6);
    windows.forEach(([lo, hi], i) => {
      const gap = at[i + 1]! - at[i]!;
      expect(gap, `retry ${i + 1}: gap ${gap} ms, window ${lo}-${hi}`).toBeGreaterThanOrEqual(lo - 5);
      expect(gap, `retry ${i + 1}: gap ${gap} ms (stall ${stall} ms)`).toBeLessThanOrEqual(
        hi + GROSS_MS + stall,
      );
    });
  }

  it('refuses a wrong schedule on install and on edit with a message naming the setting; changes nothing', async () => {
    const r = await receiver();
    const bad = await t.api<{ error: { code: string; message: string } }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-bad-schedule',
      configuration: { url: r.url, space_content_updated: true, retry_schedule: '5x, 1h' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_configuration');
    expect(bad.body.error.message).toMatch(/configuration\.retry_schedule: retry 1: "5x" is not a delay/);
    const listed = await t.api<{ installations: unknown[] }>(
      'GET',
      '/v1/installations?space=space-bad-schedule',
    );
    expect(listed.body.installations).toEqual([]);

    const id = await install(r.url, 'space-edit-schedule', 'extended');
    for (const [value, message] of [
      [Array(13).fill('1s').join(','), /13 retries; at most 12/],
      ['3d, 1s', /add up to .*at most 3d/],
      ['weekly', /"weekly" is not a preset/],
    ] as const) {
      const edit = await t.api<{ error: { message: string } }>('PATCH', `/v1/installations/${id}`, {
        configuration: { retry_schedule: value },
      });
      expect(edit.status, value).toBe(400);
      expect(edit.body.error.message).toMatch(message);
    }
    const after = await t.api<{ status: string; configuration: Record<string, unknown> }>(
      'GET',
      `/v1/installations/${id}`,
    );
    expect(after.body).toMatchObject({ status: 'active', configuration: { retry_schedule: 'extended' } });
  });

  it('retries an explicit list in its windows, measured at the receiver, then ends exhausted', async () => {
    const r = await receiver((_req, res) => res.writeHead(503).end());
    const id = await install(r.url, 'space-custom', '1s, 3s, 2s');
    await r.waitFor(4, 15_000);
    expectWindows(r, [
      [1000, 1100],
      [3000, 3300],
      [2000, 2200],
    ]);
    await expect.poll(async () => (await deliveries(id))[0]?.state, { timeout: 5_000 }).toBe('exhausted');
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(4);
  }, 30_000);

  it('retries the `extended` preset in its first window, then shows the next attempt 5 minutes later', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end());
    const id = await install(r.url, 'space-extended', 'extended');
    await r.waitFor(2, 15_000);
    expectWindows(r, [[5000, 5500]]);
    const { delivery, next } = await afterSecondAttempt(id);
    expect(delivery.state).toBe('queued');
    expect(next).toBeGreaterThanOrEqual(300_000);
    expect(next).toBeLessThanOrEqual(330_000);
  }, 30_000);

  it('honours Retry-After on 429 and 503 within its bounds (never earlier than the schedule, at most 1 h)', async () => {
    let calls = 0;
    const r = await receiver((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '3' }).end();
      else res.writeHead(503, { 'retry-after': '7200' }).end();
    });
    const id = await install(r.url, 'space-retry-after', '1s, 1s');
    await r.waitFor(2, 15_000);
    expectWindows(r, [[3000, 3300]]);
    const { next } = await afterSecondAttempt(id);
    // Asked for 2 h: cut to the 1 h bound (plus the schedule's jitter).
    expect(next).toBeGreaterThanOrEqual(3_600_000);
    expect(next).toBeLessThanOrEqual(3_960_000);
  }, 30_000);

  it('keeps a retry due later across a restart: due hours later it stays queued and shown; due soon it arrives in its window', async () => {
    let failing = true;
    const r = await receiver((_req, res) => res.writeHead(failing ? 503 : 200).end());
    const soon = await install(r.url, 'space-restart-soon', '6s');
    const later = await receiver((_req, res) => res.writeHead(503).end());
    const hours = await install(later.url, 'space-restart-hours', '2h, 1d');
    await r.waitFor(1);
    await later.waitFor(1);
    await expect
      .poll(async () => (await deliveries(hours))[0]?.nextAttemptAt, { timeout: 5_000 })
      .toBeTruthy();
    const before = (await deliveries(hours))[0]!;
    const end = Date.parse(before.attempts[0]!.startedAt) + before.attempts[0]!.durationMs;
    expect(Date.parse(before.nextAttemptAt!) - end).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(Date.parse(before.nextAttemptAt!) - end).toBeLessThanOrEqual(2.2 * 3_600_000);

    // The CLI shows when the next attempt is.
    const cli = await cliDeliveriesList(t, hours);
    expect(cli).toContain(`queued`);
    expect(cli).toContain(`next attempt at ${before.nextAttemptAt}`);

    // Restart on the same data: the stored jobs are all there is.
    await t.host.stop();
    failing = false;
    t = await startTestHost(env(), backend);
    await r.waitFor(2, 15_000);
    expectWindows(r, [[6000, 6600]]);
    await expect.poll(async () => (await deliveries(soon))[0]?.state, { timeout: 5_000 }).toBe('succeeded');
    const after = (await deliveries(hours))[0]!;
    expect(after).toMatchObject({ id: before.id, state: 'queued', nextAttemptAt: before.nextAttemptAt });
    expect(after.attempts).toHaveLength(1);
    expect(later.received).toHaveLength(1);
  }, 40_000);
});
