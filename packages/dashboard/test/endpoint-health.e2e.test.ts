import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardHost,
  expectFitsWidth,
  type HostAndBrowser,
  SHOTS,
  signInAsOperator,
  startHostAndBrowser,
} from './harness';

/** A receiver answering 503 until `ok` is set; counts requests. */
async function flakyReceiver() {
  const state = { ok: false, received: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received++;
      res.writeHead(state.ok ? 200 : 503).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Issue 28 in the dashboard (Chromium, a real host): a wrong retry schedule is refused under its field; a
 * disabled endpoint is said in the delivery log with its kept (held) deliveries and enabled again with a
 * button; the Host page lists the operator events.
 */
describe('retry schedules, endpoint health and operator events in the dashboard', () => {
  let t: DashboardHost;
  let session: HostAndBrowser | undefined;
  let hook: Awaited<ReturnType<typeof flakyReceiver>>;
  let operator: Awaited<ReturnType<typeof flakyReceiver>>;

  beforeAll(async () => {
    hook = await flakyReceiver();
    operator = await flakyReceiver();
    operator.state.ok = true;
    session = await startHostAndBrowser({
      PLATFORM_ENDPOINT_DISABLE_AFTER: '2s',
      PLATFORM_OPERATOR_EVENTS_URL: operator.url,
      PLATFORM_OPERATOR_EVENTS_SECRET: 'whsec_dashboard_operator_events_secret_01',
    });
    t = session.t;
  }, 90_000);
  afterAll(async () => {
    await session?.close();
    await hook?.close();
    await operator?.close();
  });

  const send = (revisionId: string) => t.contentUpdated('health-docs', revisionId);
  const endpoint = async (id: string) =>
    (await t.api<{ endpoint: { disabled: boolean } }>('GET', `/v1/installations/${id}/deliveries`)).body
      .endpoint;

  it('refuses a wrong retry schedule under its field, shows a disabled endpoint and enables it', async () => {
    const { page } = session!;
    const id = await t.installWebhook(
      { space: 'health-docs' },
      { url: hook.url, space_content_updated: true, retry_schedule: '1s' },
    );
    await signInAsOperator(page, t.url);
    await page.goto(`${t.url}/installations/${id}`);

    // The retry schedule field: a typo is refused by the host, said under the field, nothing saved.
    await page.locator('#field-retry_schedule').fill('5x, 1h');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect
      .poll(() => page.getByTestId('error-retry_schedule').textContent())
      .toContain('retry 1: "5x" is not a delay');
    const saved = await t.api<{ configuration: Record<string, unknown> }>('GET', `/v1/installations/${id}`);
    expect(saved.body.configuration.retry_schedule).toBe('1s');
    await page.screenshot({ path: join(SHOTS, 'webhook-retry-schedule-invalid.png'), fullPage: true });

    // Disabled: two exhausted deliveries 2 s apart.
    await send('a');
    await new Promise((r) => setTimeout(r, 2500));
    await send('b');
    await expect.poll(async () => (await endpoint(id)).disabled, { timeout: 15_000 }).toBe(true);
    await send('kept');
    const notice = page.getByTestId('endpoint-disabled');
    await notice.waitFor({ timeout: 15_000 });
    await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toContain('1 new delivery is kept');
    expect(await page.locator('.delivery .badge', { hasText: 'held' }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'webhook-endpoint-disabled.png'), fullPage: true });
    // At phone width: the notice and its button fit without scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page, 390);
    await notice.screenshot({ path: join(SHOTS, 'webhook-endpoint-disabled-390.png') });
    await page.setViewportSize({ width: 1400, height: 900 });

    const before = hook.state.received;
    hook.state.ok = true;
    await notice.getByRole('button', { name: 'Enable endpoint' }).click();
    await page.getByText('Enabled. 1 kept delivery is being sent.').waitFor();
    await expect.poll(() => hook.state.received, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => page.getByTestId('endpoint-disabled').count()).toBe(0);
    await expect.poll(() => page.locator('.delivery .badge', { hasText: 'held' }).count()).toBe(0);

    // The Host page lists the operator events, newest first.
    await send('recovered');
    await page.getByRole('link', { name: 'Host' }).click();
    const events = page.getByTestId('operator-event');
    await expect
      .poll(
        async () => (await events.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).sort(),
        {
          timeout: 15_000,
        },
      )
      .toEqual(['delivery.exhausted', 'delivery.exhausted', 'endpoint.disabled', 'endpoint.recovered']);
    expect(await page.getByTestId('operator-events-endpoint').textContent()).toContain(
      new URL(operator.url).origin,
    );
    await page.screenshot({ path: join(SHOTS, 'operator-events.png'), fullPage: true });
  }, 90_000);
});
