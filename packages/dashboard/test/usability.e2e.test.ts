import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type DashboardHost, SHOTS, type startReceiver, useDashboardSession } from './harness';

// What a first-time operator tripped on in the dashboard, each checked in Chromium against a real host.
const TIMEOUT = 15_000;

let t: DashboardHost;
let context: BrowserContext;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

useDashboardSession(
  { receiverStatuses: [500, 500, 500, 500], profilePrefix: 'dashboard-usability-' },
  (session) => ({ t, receiver, context, page } = session),
);

const signIn = async (target: Page, remember: boolean) => {
  await target.goto(`${t.url}/`);
  await target.getByLabel('Admin token').fill(ADMIN_TOKEN);
  if (remember) await target.getByLabel('Stay signed in on this browser').check();
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
};

describe('dashboard usability in Chromium', () => {
  it('keeps the sign-in for one tab unless "Stay signed in" is ticked; Sign out forgets it everywhere', async () => {
    await signIn(page, false);
    const other = await context.newPage();
    await other.goto(`${t.url}/integrations`);
    await other.getByRole('button', { name: 'Sign in' }).waitFor(); // another tab: not signed in
    await other.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, true);
    const second = await context.newPage();
    await second.goto(`${t.url}/integrations`);
    await second.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor(); // signed in there too
    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await second.evaluate(() => localStorage.getItem('platform.adminToken'))).toBeNull();
    await second.close();
    await page.getByText('You signed out in another tab of this browser.').waitFor(); // and here too
    await signIn(page, true); // for the tests below
  });

  it('clears a field\'s "required" error as soon as it is typed in, and says when http:// is accepted', async () => {
    const installed = await t.installWebhook({ space: 'required-docs' }, {});
    await page.goto(`${t.url}/installations/${installed}`);
    const error = page.getByTestId('error-url');
    await error.waitFor();
    const help = await page.locator('#field-url-help').textContent();
    expect(help).not.toContain('(https is required)');
    expect(help).toContain('http:// only works on a host that allows private targets');
    await page.locator('#field-url').fill(receiver.url);
    await expect.poll(() => error.count()).toBe(0); // before Save
    await page.locator('#field-space_content_updated').click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByTestId('installation-status').textContent()).toBe('Active');
  });

  it('shows that a delivery row opens (aria-expanded) and the next attempt time of a queued one', async () => {
    const event = await t.contentUpdated('required-docs', 'rev-1');
    expect(event.status).toBe(202);
    const row = page.getByTestId('delivery').first();
    // The receiver answers 500: between attempts the delivery waits, queued, for its next one.
    const next = row.getByTestId('next-attempt');
    await next.waitFor({ timeout: TIMEOUT });
    expect(await next.textContent()).toMatch(/next attempt (in \d+ s|just now)/);
    expect(await next.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await shot('webhook-queued');
    const summary = row.locator('summary');
    expect(await summary.getAttribute('aria-expanded')).toBe('false');
    expect(await summary.locator('.disclosure').count()).toBe(1);
    await summary.click();
    // The details element reports its toggle asynchronously; the attribute follows on the next render.
    await expect.poll(() => summary.getAttribute('aria-expanded')).toBe('true');
    await row.getByTestId('attempt').first().waitFor();
    // Still open after the live refreshes (every second).
    await page.waitForTimeout(1500);
    expect(await summary.getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps the space page (text and inserted blocks) across a reload; its placeholder is not text', async () => {
    await t.install('hello', { space: 'notes' }, {});
    await page.goto(`${t.url}/spaces/notes`);
    const text = page.locator('#doc-text');
    await text.waitFor();
    expect(await text.inputValue()).toBe('');
    expect(await text.getAttribute('placeholder')).toContain('Untitled page');
    await text.fill('Release notes for 2.0');
    await page.keyboard.press('Control+/');
    const menu = page.getByRole('dialog', { name: 'Insert a block' });
    await page.keyboard.type('coun');
    await menu.getByRole('option', { name: /Counter/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Counter' }).getByText('Count: 0').waitFor();

    await page.reload();
    await page.getByRole('region', { name: 'Counter' }).getByText('Count: 0').waitFor();
    expect(await page.locator('#doc-text').inputValue()).toBe('Release notes for 2.0');
  });

  it('serves a readable API reference at /api from the host alone (no request leaves the machine)', async () => {
    const elsewhere: string[] = [];
    const hostOnly = (target: Page) =>
      target.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.origin === new URL(t.url).origin) return route.continue();
        elsewhere.push(url.href);
        return route.abort();
      });
    await hostOnly(page);
    try {
      await page.goto(`${t.url}/integrations`);
      const [reference] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('link', { name: 'API' }).click(),
      ]);
      await hostOnly(reference);
      expect(new URL(reference.url()).pathname).toBe('/api');
      // the page says it is loading at once, and asks for the description while the bundle still loads
      const html = await (await fetch(`${t.url}/api`)).text();
      expect(html).toContain('Loading the API reference…');
      expect(html).toContain('<link rel="preload" href="/openapi.json" as="fetch"');
      const operation = reference.locator('.opblock-post', { hasText: '/v1/events' }).first();
      await operation.waitFor({ timeout: TIMEOUT });
      await operation.locator('.opblock-summary').click();
      await reference.getByText('Responses').first().waitFor();
      // each operation says who may call it (from the host's access rules)
      await reference.getByText('Who may call: the operator.').first().waitFor();
      expect(await reference.locator('.opblock').count()).toBeGreaterThan(10);
      await reference.screenshot({ path: join(SHOTS, 'api-reference.png') });
      await reference.close();
      expect(elsewhere).toEqual([]);
    } finally {
      await page.unroute('**/*');
    }
  });

  it('fits the navigation in a 390 px wide window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${t.url}/integrations`);
      await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const link of await nav.getByRole('link').all()) {
        const box = await link.boundingBox();
        expect(box, (await link.textContent()) ?? undefined).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      }
      const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
      expect((signOut?.x ?? 0) + (signOut?.width ?? 0)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, 'narrow-nav.png') });
    } finally {
      await page.setViewportSize({ width: 1200, height: 860 });
    }
  });
});
