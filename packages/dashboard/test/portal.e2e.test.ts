import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/test/backends.js';
import { eventually } from '../../host/test/helpers.js';
import { buildAll, launchBrowser, SHOTS } from './harness';
import {
  ADMIN_TOKEN,
  type OpenedSession,
  type PortalHost,
  type ScriptedReceiver,
  startPortalHost,
  startScriptedReceiver,
} from './portal-harness';

// The subscriber portal in Chromium against a real host on each storage backend: the page on the content
// origin, calling the API origin with a portal session token it keeps in memory only.
const EXPIRED = 'This portal link has expired or was revoked; ask for a new link.';

/** A page that answers `<iframe src=url>` on 127.0.0.1 (a site that embeds the portal). */
async function startEmbedder(): Promise<{ origin: string; server: Server; frame(url: string): string }> {
  let target = '';
  const server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>embedder</title><iframe id="portal" src="${target}"></iframe>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    frame(url) {
      target = url;
      return `${origin}/`;
    },
  };
}

const close = (server: Server) =>
  new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

/** The delivery row of an event in the portal's live log (in a given state). */
const deliveryOf = (page: Page, eventId: string, state?: string): Locator =>
  page
    .locator(`[data-testid="delivery"]${state ? `[data-state="${state}"]` : ''}`)
    .filter({ hasText: eventId });

describe.each(BACKENDS)('subscriber portal in Chromium (%s)', { timeout: 90_000 }, (backend) => {
  let h: PortalHost;
  let receiver: ScriptedReceiver;
  let receiver2: ScriptedReceiver;
  let installation: { id: string };
  let session: OpenedSession;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let embedder: Awaited<ReturnType<typeof startEmbedder>>;
  const space = 'portal-docs';

  beforeAll(async () => {
    buildAll();
    await mkdir(SHOTS, { recursive: true });
    embedder = await startEmbedder();
    h = await startPortalHost(backend, { PLATFORM_PORTAL_FRAME_ANCESTORS: embedder.origin });
    receiver = await startScriptedReceiver();
    receiver2 = await startScriptedReceiver();
    installation = await h.installWebhook(space, receiver.url);
    session = await h.openSession(installation.id);
    browser = await launchBrowser({ width: 1200, height: 860 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await receiver2?.close();
    await h?.close();
    if (embedder) await close(embedder.server);
  });

  it('opens from the link on the content origin and forgets the fragment', async () => {
    const { page } = browser;
    expect(new URL(session.url).origin).toBe(h.contentOrigin);
    expect(h.contentOrigin).not.toBe(h.apiOrigin);
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    expect(page.url()).toBe(`${h.contentOrigin}/portal/`);
    await page.getByRole('heading', { name: `Space ${space}` }).waitFor();
    expect(await page.getByTestId('endpoint-url').textContent()).toBe(receiver.url);
    await page.getByTestId('portal-expiry').waitFor();
  });

  it('shows a delivery live with its attempt and payload, redelivers it, and redelivers a failed range', async () => {
    const { page } = browser;
    const eventId = await h.postEvent(space);
    await receiver.waitFor(1);
    const row = deliveryOf(page, eventId);
    await deliveryOf(page, eventId, 'succeeded').waitFor(); // appeared by the live refresh
    await row.getByRole('button', { name: /Succeeded/ }).click();
    await row.getByTestId('attempt').filter({ hasText: 'HTTP 200' }).waitFor();
    expect(await row.getByTestId('attempt').first().textContent()).toContain('{"received":true}');
    expect(await row.locator('.payload').textContent()).toContain(eventId);

    await row.getByRole('button', { name: 'Redeliver', exact: true }).click();
    const [, again] = await receiver.waitFor(2);
    expect(JSON.parse(again?.body ?? '{}').eventId).toBe(eventId);
    await row.getByText('(redelivery 1)').waitFor();

    // a delivery the receiver refuses (410: not retried) fails; the range redelivery sends it again
    receiver.status = 410;
    const failedId = await h.postEvent(space);
    await receiver.waitFor(3);
    await deliveryOf(page, failedId, 'failed').waitFor();
    receiver.status = 200;
    await page.getByRole('button', { name: 'Redeliver all failed' }).click();
    await page.getByText('1 failed delivery queued again.').waitFor();
    const received = await receiver.waitFor(4);
    expect(JSON.parse(received[3]?.body ?? '{}').eventId).toBe(failedId);
    await deliveryOf(page, failedId, 'succeeded').waitFor();
  });

  it('sends a test event, rotates the secret and moves the endpoint to a new URL', async () => {
    const { page } = browser;
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText(/Test event space_content_updated queued/).waitFor();
    const received = await receiver.waitFor(before + 1);
    expect(JSON.parse(received[before]?.body ?? '{}')).toMatchObject({ test: true });

    await page.getByRole('button', { name: 'Reveal' }).click();
    const secret = page.getByTestId('webhook-secret');
    await secret.filter({ hasText: /^whsec_[^•]+$/ }).waitFor();
    const old = await secret.textContent();
    await page.getByRole('button', { name: 'Rotate…' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    await page.getByText(/New secret in use/).waitFor();
    const rotated = await secret.textContent();
    expect(rotated).not.toBe(old);
    const operatorView = await h.t.api<{ secret: string }>(
      'GET',
      `/v1/installations/${installation.id}/webhook-secret`,
    );
    expect(operatorView.body.secret).toBe(rotated);

    await page.getByLabel('Webhook URL').fill(receiver2.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: the next events go to this URL.').waitFor();
    expect(await page.getByTestId('endpoint-url').textContent()).toBe(receiver2.url);
    const count = receiver.received.length;
    const eventId = await h.postEvent(space);
    const [moved] = await receiver2.waitFor(1);
    expect(JSON.parse(moved?.body ?? '{}').eventId).toBe(eventId);
    expect(receiver.received.length).toBe(count);
  });

  it("shows the host's validation by its field, and API errors with their message", async () => {
    const { page, context } = browser;
    await page.getByLabel('Webhook URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText('Saved, but the webhook is not active until the problems above are fixed.')
      .waitFor();
    expect(await page.locator('#portal-url-error').textContent()).toMatch(/https/);
    await page.getByText('Pending: configuration incomplete').waitFor();
    await page.getByLabel('Webhook URL').fill(receiver2.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: the next events go to this URL.').waitFor();
    expect(await page.locator('#portal-url-error').count()).toBe(0);

    // an installation removed while its portal is open: the host's 404 is shown as it says it
    const doomed = await h.installWebhook('doomed-space', receiver2.url);
    const doomedSession = await h.openSession(doomed.id);
    const other = await context.newPage();
    await other.goto(doomedSession.url);
    await other.getByRole('heading', { name: 'Space doomed-space' }).waitFor();
    expect((await h.t.api('DELETE', `/v1/installations/${doomed.id}`)).status).toBe(204);
    await other.getByRole('button', { name: 'Send a test event' }).click();
    const alert = other.locator('.test-event [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(doomed.id);
    await other.getByText(/The delivery log could not be refreshed: .*not found/i).waitFor();
    await other.close();
  });

  it("lists an organization's webhooks in one session and switches between them", async () => {
    const { context } = browser;
    const api = h.t.api.bind(h.t);
    expect((await api('POST', '/v1/organizations', { id: 'acme', name: 'Acme Docs' })).status).toBe(201);
    for (const owned of ['acme-a', 'acme-b']) {
      expect((await api('PUT', `/v1/spaces/${owned}/owner`, { organization: 'acme' })).status).toBe(200);
    }
    const a = await h.installWebhook('acme-a', receiver2.url);
    const b = await h.installWebhook('acme-b', receiver2.url);
    const opened = await api<OpenedSession>('POST', '/v1/portal/sessions', { organization: 'acme' });
    expect(opened.status).toBe(201);
    const page = await context.newPage();
    await page.goto(opened.body.url);
    const picker = page.getByRole('navigation', { name: 'Your webhooks' });
    await picker.waitFor();
    await page.getByText('Acme Docs').waitFor();
    const listed = await picker.getByRole('button').allTextContents();
    expect(listed).toHaveLength(2); // the organization's two, not the installation it does not own
    expect(listed.join(' ')).not.toContain(space);
    await page.getByRole('heading', { name: 'Space acme-a' }).waitFor();
    await picker.getByRole('button', { name: /Space acme-b/ }).click();
    await page.getByRole('heading', { name: 'Space acme-b' }).waitFor();
    const eventId = await h.postEvent('acme-b');
    await deliveryOf(page, eventId, 'succeeded').waitFor();
    expect(await deliveryOf(page, eventId).locator('.payload').textContent()).toContain(b.id);
    expect(a.id).not.toBe(b.id);
    await page.close();
  });

  it('works at phone width without horizontal overflow (screenshots of both widths)', async () => {
    const { page, context } = browser;
    const shots = backend === 'sqlite';
    await page.emulateMedia({ reducedMotion: 'reduce' }); // no chevron caught mid-turn in the pictures
    // one delivery open, so that its attempts and payload are in the pictures
    const first = page.getByTestId('delivery').first();
    if ((await first.locator('details[open]').count()) === 0) await first.getByRole('button').first().click();
    if (shots) await page.screenshot({ path: join(SHOTS, 'portal.png'), fullPage: true });
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.emulateMedia({ reducedMotion: 'reduce' });
    await phone.goto(session.url);
    await phone.getByTestId('delivery').first().waitFor();
    await phone.getByTestId('delivery').first().getByRole('button').first().click();
    await phone.getByTestId('delivery').first().getByTestId('attempt').first().waitFor();
    const widths = await phone.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.client).toBe(390);
    if (shots) await phone.screenshot({ path: join(SHOTS, 'portal-phone.png'), fullPage: true });
    await phone.close();
  });

  it('shows only the expiry message once the session expired, or was revoked', async () => {
    const { context } = browser;
    for (const end of ['expire', 'revoke'] as const) {
      const other = await h.openSession(installation.id);
      const page = await context.newPage();
      await page.goto(other.url);
      await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
      if (end === 'expire') await h.expireSession(other.id);
      else expect((await h.t.api('DELETE', `/v1/portal/sessions/${other.id}`)).status).toBe(204);
      // the next live refresh (every 2 s) is refused: the page says so, and shows nothing else
      await page.getByTestId('portal-problem').getByText(EXPIRED).waitFor();
      expect(await page.getByRole('heading', { name: 'Webhook deliveries' }).count()).toBe(0);
      expect(await page.getByTestId('delivery').count()).toBe(0);
      expect((await page.locator('body').innerText()).replace(/\s+/g, ' ').trim()).toBe(
        `Link expired ${EXPIRED}`,
      );
      await page.close();
    }
    // a reload has no link any more: it says so instead of failing silently
    const page = await context.newPage();
    await page.goto(`${h.contentOrigin}/portal/`);
    await page.getByText('This page opens from a portal link.', { exact: false }).waitFor();
    await page.close();
  });

  it("cannot read the dashboard's stored operator token, another installation, or operator routes", async () => {
    const { context } = browser;
    const dashboard = await context.newPage();
    await dashboard.goto(`${h.apiOrigin}/`);
    await dashboard.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await dashboard.getByLabel('Stay signed in on this browser').check();
    await dashboard.getByRole('button', { name: 'Sign in' }).click();
    await dashboard.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(await dashboard.evaluate(() => localStorage.getItem('platform.adminToken'))).toBe(ADMIN_TOKEN);

    const other = await h.installWebhook('someone-elses-space', receiver2.url);
    const portal = await context.newPage();
    await portal.goto(session.url);
    await portal.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
    const seen = await portal.evaluate(
      async ({ api, token, otherId }) => {
        const call = async (path: string) =>
          (await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
        return {
          origin: window.location.origin,
          local: JSON.stringify({ ...localStorage }),
          session: JSON.stringify({ ...sessionStorage }),
          cookie: document.cookie,
          otherDeliveries: await call(`/v1/installations/${otherId}/deliveries`),
          otherInstallation: await call(`/v1/installations/${otherId}`),
          status: await call('/v1/status'),
          mine: await call('/v1/installations'),
        };
      },
      { api: h.apiOrigin, token: session.token, otherId: other.id },
    );
    expect(seen.origin).toBe(h.contentOrigin);
    expect(seen.origin).not.toBe(h.apiOrigin);
    expect(seen.local).toBe('{}');
    expect(seen.session).toBe('{}');
    expect(seen.cookie).toBe('');
    expect(seen.local + seen.session).not.toContain(ADMIN_TOKEN);
    expect(seen).toMatchObject({ otherDeliveries: 404, otherInstallation: 404, status: 403, mine: 200 });
    // and the page lists only its own installation
    const listed = await h.t.api<{ installations: Array<{ id: string }> }>(
      'GET',
      '/v1/installations',
      undefined,
      session.token,
    );
    expect(listed.body.installations.map((i) => i.id)).toEqual([installation.id]);
    await portal.close();
    await dashboard.close();
  });

  it('may be framed by the origins of PLATFORM_PORTAL_FRAME_ANCESTORS only', async () => {
    const response = await fetch(`${h.contentOrigin}/portal/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${embedder.origin}`);
    expect(csp).toContain(`connect-src ${h.apiOrigin}`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');

    const { context } = browser;
    const page = await context.newPage();
    await page.goto(embedder.frame(session.url));
    const frame = page.frameLocator('#portal');
    await frame.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
    await page.close();

    // a host without the setting: nobody may frame it, and Chromium refuses to show it in the frame
    const plain = await startPortalHost(backend);
    try {
      const header = (await fetch(`${plain.contentOrigin}/portal/`)).headers;
      expect(header.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(header.get('x-frame-options')).toBe('DENY');
      const inst = await plain.installWebhook(space, receiver.url);
      const blocked = await plain.openSession(inst.id);
      const framing = await context.newPage();
      await framing.goto(embedder.frame(blocked.url));
      await eventually(
        async () =>
          framing.frames().find((f) => f !== framing.mainFrame() && f.url().startsWith('chrome-error:')),
        10_000,
        'the frame to be refused',
      );
      expect(
        await framing.frameLocator('#portal').getByRole('heading', { name: 'Webhook deliveries' }).count(),
      ).toBe(0);
      await framing.close();
    } finally {
      await plain.close();
    }
  });
});
