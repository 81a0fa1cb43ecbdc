import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_MODES } from './backends.js';
import { cliDeliveriesList, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

interface Delivery {
  id: string;
  eventId: string;
  state: string;
  held?: boolean;
  attempts: unknown[];
}
interface Endpoint {
  disabled: boolean;
  disabledAt: string | null;
  failingSince: string | null;
  held: number;
}

/** The operator's threshold in this suite: every delivery exhausted for 2 s disables an endpoint. */
const DISABLE_AFTER_MS = 2000;

/**
 * Endpoint health (docs/contracts.md "Endpoint health") on a real host and real receivers: a run of
 * exhausted deliveries longer than PLATFORM_ENDPOINT_DISABLE_AFTER disables the endpoint, what arrives
 * meanwhile is kept (held, listed, never sent), and enabling it delivers or cancels what was kept.
 */
describe.each(BACKEND_MODES)('endpoint health (%s, %s)', (backend, _mode, thread) => {
  let t: TestHost;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_ENDPOINT_DISABLE_AFTER: `${DISABLE_AFTER_MS / 1000}s`,
        PLATFORM_DELIVERY_THREAD: thread,
      },
      backend,
    );
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  /** A receiver failing (503) until `ok.value` is set. */
  async function flaky(): Promise<{ r: Receiver; ok: { value: boolean } }> {
    const ok = { value: false };
    const r = await startReceiver((_req, res) => res.writeHead(ok.value ? 200 : 503).end());
    receivers.push(r);
    return { r, ok };
  }

  async function install(url: string, space: string): Promise<string> {
    const res = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url, space_content_updated: true, retry_schedule: '1s' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  const send = (space: string, revisionId: string) =>
    t.api<{ eventId: string }>('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: space,
      revisionId,
    });

  async function page(id: string) {
    const res = await t.api<{ deliveries: Delivery[]; endpoint: Endpoint }>(
      'GET',
      `/v1/installations/${id}/deliveries`,
    );
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Sends events until the endpoint is disabled (each one exhausted after its one retry). */
  async function disable(id: string, space: string): Promise<void> {
    const first = await send(space, 'fail-1');
    await expect
      .poll(async () => (await page(id)).deliveries.find((d) => d.eventId === first.body.eventId)?.state, {
        timeout: 10_000,
      })
      .toBe('exhausted');
    // Recorded just after the delivery's end (the same engine, the next statement).
    await expect.poll(async () => (await page(id)).endpoint.failingSince, { timeout: 5_000 }).not.toBeNull();
    expect((await page(id)).endpoint).toMatchObject({ disabled: false, disabledAt: null, held: 0 });
    // Still within the threshold: the next exhausted delivery must end after it to disable.
    await new Promise((r) => setTimeout(r, DISABLE_AFTER_MS));
    await send(space, 'fail-2');
    await expect.poll(async () => (await page(id)).endpoint.disabled, { timeout: 10_000 }).toBe(true);
  }

  it('disables an endpoint after a run of exhausted deliveries, keeps what arrives, delivers it when enabled', async () => {
    const { r, ok } = await flaky();
    const id = await install(r.url, 'space-health');
    const beforeEnable = await t.api<{ error: { code: string } }>(
      'POST',
      `/v1/installations/${id}/endpoint/enable`,
      {},
    );
    expect(beforeEnable.status).toBe(409);
    expect(beforeEnable.body.error.code).toBe('endpoint_not_disabled');

    await disable(id, 'space-health');
    const sentBefore = r.received.length;
    const kept = [await send('space-health', 'kept-1'), await send('space-health', 'kept-2')];
    const keptIds = kept.map((k) => k.body.eventId);
    await expect.poll(async () => (await page(id)).endpoint.held, { timeout: 5_000 }).toBe(2);
    // Kept, listed as held, never sent while disabled.
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received.length).toBe(sentBefore);
    const { deliveries, endpoint } = await page(id);
    expect(endpoint.disabled).toBe(true);
    expect(endpoint.disabledAt).not.toBeNull();
    for (const eventId of keptIds) {
      expect(deliveries.find((d) => d.eventId === eventId)).toMatchObject({
        state: 'queued',
        held: true,
        attempts: [],
      });
    }

    // The CLI says so.
    const cli = await cliDeliveriesList(t, id);
    expect(cli).toContain('Endpoint disabled since');
    expect(cli).toContain('2 new deliveries are kept (held)');
    expect(cli.split('held (endpoint disabled)')).toHaveLength(3);

    ok.value = true;
    const enabled = await t.api<{ delivering: number; cancelled: number; endpoint: Endpoint }>(
      'POST',
      `/v1/installations/${id}/endpoint/enable`,
    );
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body).toMatchObject({
      delivering: 2,
      cancelled: 0,
      endpoint: { disabled: false, held: 0 },
    });
    await r.waitFor(sentBefore + 2, 10_000);
    const got = r.received.slice(sentBefore).map((x) => JSON.parse(x.body).eventId as string);
    expect(got.sort()).toEqual([...keptIds].sort());
    await expect
      .poll(
        async () =>
          (await page(id)).deliveries.filter((d) => keptIds.includes(d.eventId)).map((d) => d.state),
        { timeout: 5_000 },
      )
      .toEqual(['succeeded', 'succeeded']);
    // Healthy again: nothing tracked.
    await expect
      .poll(async () => (await page(id)).endpoint, { timeout: 5_000 })
      .toEqual({
        slow: false,
        maxInFlight: null,
        filtered: 0,
        disabled: false,
        disabledAt: null,
        failingSince: null,
        held: 0,
      });
  }, 40_000);

  it('can cancel what was kept instead: listed as cancelled, never sent', async () => {
    const { r, ok } = await flaky();
    const id = await install(r.url, 'space-health-cancel');
    await disable(id, 'space-health-cancel');
    const sentBefore = r.received.length;
    const kept = await send('space-health-cancel', 'kept');
    await expect.poll(async () => (await page(id)).endpoint.held, { timeout: 5_000 }).toBe(1);
    ok.value = true;
    const enabled = await t.api<{ delivering: number; cancelled: number }>(
      'POST',
      `/v1/installations/${id}/endpoint/enable`,
      { held: 'cancel' },
    );
    expect(enabled.body).toMatchObject({ delivering: 0, cancelled: 1 });
    const bad = await t.api('POST', `/v1/installations/${id}/endpoint/enable`, { held: 'drop' });
    expect(bad.status).toBe(400);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received.length).toBe(sentBefore);
    const cancelled = (await page(id)).deliveries.find((d) => d.eventId === kept.body.eventId);
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    // New events are delivered again.
    await send('space-health-cancel', 'after');
    await r.waitFor(sentBefore + 1, 10_000);
  }, 40_000);
});
