import { sampleEvent } from '@platform/events';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type DashboardHost, expectFitsWidth, SHOTS, startReceiver, useHostAndBrowser } from './harness';

/**
 * The endpoint settings of a webhook installation (docs/contracts.md "Endpoint settings") on its dashboard
 * page, in Chromium against a real host: a header the host refuses is shown under the headers, a filter
 * that is not JSON is caught before saving, a wrong one is shown with the host's path; a save stores them
 * (credentials masked), and the filtered count shows in the delivery log. Screenshots at 1400 and 390 px.
 */
let t: DashboardHost;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let id = '';

useHostAndBrowser({}, async (session) => {
  ({ t, page } = session);
  receiver = await startReceiver([]);
  id = await t.installWebhook(
    { site: 'site-endpoint' },
    { url: receiver.url, page_feedback: true, filter: { field: 'feedback.rating', equals: 'bad' } },
  );
  // One event the filter keeps out: the delivery log counts it.
  const event = sampleEvent('page_feedback', { site: 'site-endpoint' });
  await t.api('POST', '/v1/events', { ...event, feedback: { ...event.feedback, rating: 'good' } });
});

afterAll(() => receiver?.close());

const fitsWidth = (width: number) => expectFitsWidth(page, width);

describe('endpoint settings in Chromium', () => {
  it('validates inline, saves, masks the credentials, and shows the filtered count; fits 1400 and 390 px', async () => {
    await page.goto(`${t.url}/installations/${id}`);
    const form = page.getByRole('form', { name: 'Endpoint settings' });
    await form.waitFor();
    await expect.poll(() => page.getByTestId('filtered-count').textContent()).toContain('1 event');
    expect(await page.locator('#endpoint-filter').inputValue()).toContain('"feedback.rating"');

    // A header name with a space: caught while typing, the save button off.
    await form.getByRole('button', { name: 'Add header' }).click();
    await page.getByTestId('header-name-0').fill('X Api Key');
    await page.getByTestId('header-value-0').fill('key-123');
    await expect.poll(() => page.getByTestId('error-header-0').textContent()).toContain('token');
    expect(await form.getByRole('button', { name: 'Save endpoint settings' }).isDisabled()).toBe(true);
    // A name only the host refuses (a signature header): its answer under the headers.
    await page.getByTestId('header-name-0').fill('webhook-signature');
    await form.getByRole('button', { name: 'Save endpoint settings' }).click();
    await expect
      .poll(() => page.getByTestId('error-endpoint-headers').textContent())
      .toContain('"webhook-signature"');
    // A filter the host refuses: the path it names.
    await page.getByTestId('header-name-0').fill('X-Api-Key');
    await page.locator('#endpoint-filter').fill('{"field": "feedback.rating", "in": []}');
    await form.getByRole('button', { name: 'Save endpoint settings' }).click();
    await expect.poll(() => page.getByTestId('error-endpoint-filter').textContent()).toContain('filter.in');
    await page.locator('#endpoint-rate-limit').fill('2.5');
    await expect
      .poll(() => page.getByTestId('error-endpoint-rate-limit-input').textContent())
      .toContain('whole number');
    await page.screenshot({ path: `${SHOTS}/webhook-endpoint-errors.png`, fullPage: true });

    // Fixed: saved; the credentials come back masked.
    await page.locator('#endpoint-filter').fill('{"field": "feedback.rating", "in": ["bad", "ok"]}');
    await page.locator('#endpoint-rate-limit').fill('20');
    await page.locator('#endpoint-auth-type').selectOption('bearer');
    await page.locator('#endpoint-auth-token').fill('tok-secret');
    await form.getByRole('button', { name: 'Save endpoint settings' }).click();
    await form.getByRole('status').waitFor();
    const saved = await t.api<{ configuration: Record<string, unknown> }>('GET', `/v1/installations/${id}`);
    expect(saved.body.configuration).toMatchObject({
      headers: { 'X-Api-Key': '********' },
      auth: { type: 'bearer', token: '********' },
      filter: { field: 'feedback.rating', in: ['bad', 'ok'] },
      rate_limit: 20,
    });
    expect(await page.locator('#endpoint-auth-token').inputValue()).toBe('********');
    await fitsWidth(1400);
    await page.getByRole('heading', { name: 'Endpoint settings' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/webhook-endpoint.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await form.waitFor();
    await fitsWidth(390);
    await page.screenshot({ path: `${SHOTS}/webhook-endpoint-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});
