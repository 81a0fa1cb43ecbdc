import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type DashboardHost, expectFitsWidth, SHOTS, startReceiver, useHostAndBrowser } from './harness';

/**
 * The delivery charts (docs/operations.md "Charts") in Chromium against a real host whose rollup runs
 * every 300 ms: real deliveries to a receiver answering 200 and one answering 500, then the Host page
 * and the failing installation's page draw their charts (uPlot canvases), the range switch loads the day
 * and the week, and the pages fit 1400 px and 390 px without scrolling sideways.
 */
let t: DashboardHost;
let page: Page;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
let failing = '';

const sumAttempts = async (query: string) => {
  const res = await t.api<{ buckets: { attempts: number }[] }>('GET', `/v1/stats/deliveries?${query}`);
  return res.body.buckets.reduce((n, b) => n + b.attempts, 0);
};

useHostAndBrowser({ PLATFORM_STATS_INTERVAL_MS: '300' }, async (session) => {
  ({ t, page } = session);
  const ok = await startReceiver([]);
  const down = await startReceiver(Array.from({ length: 100 }, () => 500));
  receivers.push(ok, down);
  const install = (url: string, space: string) =>
    t.installWebhook({ space }, { url, space_content_updated: true });
  await install(ok.url, 'space-ok');
  failing = await install(down.url, 'space-down');
  for (let i = 0; i < 12; i += 1) {
    await t.contentUpdated('space-ok', `r${i}`);
  }
  for (let i = 0; i < 2; i += 1) {
    await t.contentUpdated('space-down', `r${i}`);
  }
  // 12 × 200, and 2 deliveries × 4 attempts of 500 (the last exhausted, ~7 s after the first).
  const deadline = Date.now() + 30_000;
  while ((await sumAttempts('range=hour')) !== 20) {
    if (Date.now() > deadline)
      throw new Error(`the rollup counted ${await sumAttempts('range=hour')} attempts, not 20`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => Promise.all(receivers.map((r) => r.close())));

/** Each chart drew a canvas with some of its points, for `range`. */
async function chartsDrawn(range: string, attempts: number, flat: readonly string[] = ['backlog']) {
  const section = page.getByTestId('delivery-charts');
  await expect.poll(() => section.getAttribute('data-range')).toBe(range);
  expect(Number(await section.getAttribute('data-attempts'))).toBe(attempts);
  for (const id of ['deliveries', 'success', 'duration', 'first-attempt', 'backlog']) {
    const chart = page.getByTestId(`chart-${id}`);
    await chart.locator('canvas').waitFor();
    // A canvas as wide as its box, drawn (not blank).
    const drawn = await chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) return 0;
      const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) painted += 1;
      return painted;
    });
    expect(drawn, id).toBeGreaterThan(100);
    if (!flat.includes(id)) expect(Number(await chart.getAttribute('data-points')), id).toBeGreaterThan(0);
  }
}

const fitsWidth = (width: number) => expectFitsWidth(page, width);

describe('delivery charts in Chromium', () => {
  it('draws the host-wide charts on the Host page, switches the range, and fits 1400 and 390 px', async () => {
    await page.goto(`${t.url}/status`);
    await page.getByRole('heading', { name: 'Webhook deliveries over time' }).waitFor();
    await chartsDrawn('hour', 20);
    await expect
      .poll(() => page.getByTestId('chart-deliveries').locator('.u-legend').textContent())
      .toContain('failed');
    await fitsWidth(1400);
    await page.getByTestId('delivery-charts').screenshot({ path: join(SHOTS, 'charts.png') });

    await page.getByRole('button', { name: 'Last day' }).click();
    expect(await page.getByRole('button', { name: 'Last day' }).getAttribute('aria-pressed')).toBe('true');
    await chartsDrawn('day', 20);
    await page.getByRole('button', { name: 'Last week' }).click();
    await chartsDrawn('week', 20);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Last hour' }).click();
    await chartsDrawn('hour', 20);
    await fitsWidth(390);
    // Each chart fits the phone's width.
    for (const box of await page
      .locator('.chart canvas')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) {
      expect(box).toBeLessThanOrEqual(390);
    }
    await page.getByTestId('delivery-charts').screenshot({ path: join(SHOTS, 'charts-phone.png') });
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 60_000);

  it("draws an installation's own charts on its page", async () => {
    await page.goto(`${t.url}/installations/${failing}`);
    await page.getByRole('heading', { name: 'Deliveries over time' }).waitFor();
    await chartsDrawn('hour', 8, ['backlog', 'success']);
    const rate = await page.getByTestId('chart-success').getAttribute('data-points');
    // Every attempt failed: a success rate of 0 everywhere (no point above 0).
    expect(Number(rate)).toBe(0);
    await fitsWidth(1400);
  }, 60_000);
});
