import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { OAuth2Server } from 'oauth2-mock-server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type DashboardHost, SHOTS, type startReceiver, useDashboardSession } from './harness';
import { startOAuthProvider } from './oauth-provider';

const TIMEOUT = 15_000;

let t: DashboardHost;
let context: BrowserContext;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let provider: OAuth2Server;
const issuedTokens: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  provider = await startOAuthProvider((response) => {
    if (response.statusCode === 200 && typeof response.body.access_token === 'string') {
      issuedTokens.push(response.body.access_token);
    }
  });
}, 90_000);

useDashboardSession(
  {
    issuerUrl: () => provider.issuer.url ?? '',
    receiverStatuses: [500, 200, 200, 200],
    profilePrefix: 'dashboard-chromium-',
  },
  (session) => ({ t, receiver, context, page } = session),
);

afterAll(() => provider?.stop());

describe('dashboard in Chromium against a real host', () => {
  it('refuses a wrong token in words, then signs in from the /#token= link and drops it from the address', async () => {
    await page.goto(`${t.url}/`);
    await page.getByLabel('Admin token').fill('pat_wrong_token_0000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('does not accept that token');
    await shot('sign-in');

    await page.goto(`${t.url}/#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(page.url()).toBe(`${t.url}/`);
    expect(await page.evaluate(() => sessionStorage.getItem('platform.adminToken'))).toBe(ADMIN_TOKEN);
    const hello = page.getByRole('article', { name: 'Hello' });
    await expect.poll(() => hello.textContent()).toContain('Read the content of spaces');
    // Markdown rendered (bold), safely (no raw asterisks).
    expect(await hello.locator('.markdown strong').first().textContent()).toBe('Hello');
    expect(await page.getByRole('article', { name: 'Webhooks' }).textContent()).toContain(
      'See site page views and feedback',
    );
    // The icon and preview image uploaded with the publish, loaded by the browser (CSP and all).
    const loaded = (img: ReturnType<Page['locator']>) =>
      img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0));
    await expect.poll(() => loaded(hello.locator('img.icon'))).toBe(128);
    await expect.poll(() => loaded(hello.getByRole('img', { name: 'Preview 1 of Hello' }))).toBe(1600);
    await expect
      .poll(() => loaded(page.getByRole('article', { name: 'Webhooks' }).locator('img.icon')))
      .toBe(128);
    await shot('integrations');
  });

  it('installs hello into a space and fills its configuration screen until it is active, with OAuth', async () => {
    const card = page.getByRole('article', { name: 'Hello' });
    await card.getByLabel('Space id').fill('docs');
    await card.getByRole('button', { name: 'Install' }).click();
    await page.getByRole('heading', { name: 'Configuration' }).waitFor();
    const status = page.getByTestId('installation-status');
    await expect.poll(() => status.textContent()).toContain('Pending');
    await expect.poll(() => page.getByTestId('error-channel').textContent()).toMatch(/channel/i);
    await shot('configuration-pending');

    // Completion select: options come from GET {publicEndpoint}/channels.
    const channel = page.locator('#field-channel');
    await expect.poll(() => channel.locator('option').allTextContents()).toContain('#releases');
    await channel.selectOption('releases');
    await page.locator('#field-tone').selectOption('formal');
    await page.locator('#field-max_greetings').fill('5');
    await page.locator('#field-enabled').press('Space'); // switch off from the keyboard
    expect(await page.locator('#field-enabled').getAttribute('aria-checked')).toBe('false');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => status.textContent()).toBe('Active');
    expect(await page.getByTestId('error-channel').count()).toBe(0);
    const id = page.url().split('/').pop() ?? '';
    const saved = await t.api<{ configuration: Record<string, unknown> }>('GET', `/v1/installations/${id}`);
    expect(saved.body.configuration).toMatchObject({
      channel: 'releases',
      tone: 'formal',
      max_greetings: 5,
      enabled: false,
    });

    // OAuth button: popup → the integration's redirect → a real OAuth server (oauth2-mock-server)
    // → back with a code → the integration exchanges it and saves the credentials → "Connected".
    expect(await page.getByTestId('oauth-connect').textContent()).toBe('Not connected');
    const popup = context.waitForEvent('page');
    await page.locator('#field-connect').click();
    const win = await popup;
    await expect.poll(() => page.getByTestId('oauth-connect').textContent()).toContain('Connected');
    expect(win.url()).toContain(`/v1/integrations/hello/installations/${id}/public/oauth?code=`);
    expect(await win.textContent('body')).toContain('You may close this window');
    await win.close();
    const after = await t.api<{ configuration: { oauth_credentials?: { access_token?: string } } }>(
      'GET',
      `/v1/installations/${id}`,
    );
    // the token the provider issued, not one the test made up
    expect(issuedTokens).toHaveLength(1);
    expect(after.body.configuration.oauth_credentials?.access_token).toBe(issuedTokens[0]);
    await page.getByRole('region', { name: 'Preview of Counter' }).getByText('Count: 0').waitFor();
    await shot('configuration');
  });

  it('opens the insert menu with the keyboard, inserts the counter, and presses its button', async () => {
    await page.goto(`${t.url}/spaces/docs`);
    await page.getByRole('heading', { name: 'Space docs' }).waitFor();
    await page.locator('#doc-text').focus();
    // A busy machine paints late: hold every animation frame back (Preact runs passive effects after
    // the next frame, or 100 ms), so only focus given in the render itself reaches the filter in time.
    await page.evaluate(() => {
      window.requestAnimationFrame = (callback) => window.setTimeout(() => callback(performance.now()), 1000);
    });
    await page.keyboard.press('Control+/');
    // Typed at once, as a quick user does: every key must reach the filter, none the page text.
    await page.keyboard.type('zzz');
    const menu = page.getByRole('dialog', { name: 'Insert a block' });
    await expect.poll(() => menu.textContent()).toContain('No block matches');
    expect(await page.locator('#doc-text').inputValue()).not.toContain('zzz');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('coun');
    await menu.getByRole('option', { name: /Counter/ }).waitFor();
    await shot('editor-insert-menu');
    await page.keyboard.press('Enter');
    expect(await menu.count()).toBe(0);
    const block = page.getByRole('region', { name: 'Counter' });
    await block.getByText('Count: 0').waitFor();
    await block.getByRole('button', { name: '+1' }).click();
    await block.getByText('Count: 1').waitFor();
    await block.getByRole('button', { name: '+1' }).press('Enter');
    await block.getByText('Count: 2').waitFor();
    await shot('editor');
    await block.getByRole('button', { name: 'Reset' }).click();
    await block.getByText('Count: 0').waitFor();
    expect(await block.getByRole('button', { name: 'Reset' }).isDisabled()).toBe(true);
  });

  it('sets up a webhook, shows failing then succeeding attempts live, reveals the secret, redelivers', async () => {
    await page.goto(`${t.url}/installations`); // starts from a page of its own, whatever the test before left open
    await page.getByRole('link', { name: 'Integrations' }).click();
    const card = page.getByRole('article', { name: 'Webhooks' });
    await card.getByLabel('Space id').fill('docs');
    await card.getByRole('button', { name: 'Install' }).click();
    await page.getByRole('heading', { name: 'Deliveries', exact: true }).waitFor();
    await page.getByText('No delivery yet.').waitFor();
    expect(await page.locator('#field-site_view').count()).toBe(0); // site events do not fit a space
    await page.locator('#field-url').fill(receiver.url);
    await page.locator('#field-space_content_updated').click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByTestId('installation-status').textContent()).toBe('Active');

    // Secret: hidden, then revealed, equal to the host's.
    const id = page.url().split('/').pop() ?? '';
    const secret = await t.api<{ secret: string }>('GET', `/v1/installations/${id}/webhook-secret`);
    expect(await page.getByTestId('webhook-secret').textContent()).not.toContain(secret.body.secret);
    await page.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').textContent()).toBe(secret.body.secret);

    const event = await t.contentUpdated('docs', 'rev-42');
    expect(event.status).toBe(202);
    const delivery = page.getByTestId('delivery').first();
    await expect.poll(() => delivery.getAttribute('data-state'), { timeout: TIMEOUT }).toBe('succeeded');
    await delivery.locator('summary').click();
    const attempts = delivery.getByTestId('attempt');
    await expect.poll(() => attempts.count()).toBe(2);
    expect(await attempts.nth(0).textContent()).toContain('HTTP 500');
    expect(await attempts.nth(0).textContent()).toContain('receiver is down');
    expect(await attempts.nth(1).textContent()).toContain('HTTP 200');
    expect(await delivery.locator('.payload').textContent()).toContain('"revisionId": "rev-42"');
    await shot('webhook');

    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => attempts.count(), { timeout: TIMEOUT }).toBe(3);
    expect(await attempts.nth(2).textContent()).toContain('redelivery 1');
    expect(receiver.received).toHaveLength(3);

    // Range redelivery: nothing failed in the range, said in words.
    await page.getByRole('button', { name: 'Redeliver all failed' }).click();
    await page.getByText('No failed delivery in that range.').waitFor();

    // An API error in words: pause, then the render endpoint refuses; resume works.
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByTestId('installation-status').textContent()).toBe('Paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => page.getByTestId('installation-status').textContent()).toBe('Active');
  });

  it('says in the delivery log when an endpoint is slow and its deliveries share a limited number of slots', async () => {
    // A receiver that takes the request and never answers: the attempt runs past 500 ms (then times out).
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
      const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space: 'slow-docs',
        configuration: { url, space_content_updated: true },
      });
      expect(installed.status).toBe(201);
      expect((await t.contentUpdated('slow-docs', 'rev-slow')).status).toBe(202);
      await page.goto(`${t.url}/installations/${installed.body.id}`);
      const notice = page.getByText('This endpoint is slow.');
      await notice.waitFor({ timeout: TIMEOUT });
      const text = await page.getByRole('status').filter({ has: notice }).textContent();
      expect(text).toContain('at most 16 of its deliveries are in flight at once');
      await shot('webhook-slow');

      // The Host page names it (its origin, linked to the installation) and shows the queues.
      await page.getByRole('link', { name: 'Host' }).click();
      const slowList = page.getByRole('list', { name: 'Slow endpoints' });
      const link = slowList.getByRole('link', { name: new URL(url).origin });
      await link.waitFor({ timeout: TIMEOUT });
      expect(await slowList.textContent()).toContain('webhook in space slow-docs');
      expect(await page.getByTestId('queue-deliveries').textContent()).toMatch(/Waiting\d+.*In flight\d+/);
      await shot('status');
      await link.click();
      await page.getByText('This endpoint is slow.').waitFor();
      expect(page.url()).toBe(`${t.url}/installations/${installed.body.id}`);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
