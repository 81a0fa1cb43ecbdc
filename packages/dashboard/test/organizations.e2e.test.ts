import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NAVIGATION } from '../src/test-support';
import { ADMIN_TOKEN, type DashboardHost, SHOTS, useDashboardSession } from './harness';

// The dashboard as the operator of organizations, and as an organization (its token), in Chromium
// against a real host.
let t: DashboardHost;
let context: BrowserContext;
let page: Page;
/** The organization token made in the UI ("ci"), and the installations made through the API. */
let ciToken = '';
let ciTokenId = '';
let acmeInstallation = '';
let globexInstallation = '';
let receiverUrl = '';

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const navLabels = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
const fitsWidth = async (width: number) =>
  page.evaluate(() => document.documentElement.scrollWidth).then((w) => expect(w).toBeLessThanOrEqual(width));

useDashboardSession({ receiverStatuses: [200], profilePrefix: 'dashboard-organizations-' }, (session) => {
  ({ t, context, page } = session);
  receiverUrl = session.receiver.url;
  return context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
});

describe('organizations in the dashboard (Chromium, real host)', () => {
  it('operator: creates an organization and a token; the token is shown once, then listed; revoke works', async () => {
    await page.goto(`${t.url}/#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(await page.getByTestId('principal').textContent()).toBe('Operator');
    expect(await navLabels()).toEqual([...NAVIGATION.operator, 'API']);

    await page.getByRole('link', { name: 'Organizations' }).click();
    // Publishing names organizations too: hello's manifest says `organization: example`.
    const organizations = page.getByRole('table', { name: 'Organizations' });
    await expect.poll(() => organizations.textContent()).toContain('example');
    await page.getByLabel('Id').fill('acme');
    await page.getByLabel('Name').fill('Acme Inc.');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Acme Inc.', level: 1 }).waitFor();
    expect(page.url()).toBe(`${t.url}/organizations/acme`);
    expect((await t.api<{ name: string }>('GET', '/v1/organizations/acme')).body.name).toBe('Acme Inc.');

    // A token with four scopes and an expiry: shown once, copied, then only listed.
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name').fill('ci');
    await form.getByLabel('Expires').fill('2099-12-31');
    for (const scope of ['installations:manage', 'deliveries:read', 'tokens:manage', 'audit:read']) {
      await form.getByRole('checkbox', { name: new RegExp(`^${scope} `) }).check();
    }
    await form.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('region', { name: 'New token' });
    await created.getByText('it is shown only this once').waitFor();
    ciToken = (await page.getByTestId('created-token').textContent()) ?? '';
    expect(ciToken).toMatch(/^pot_/);
    await created.getByRole('button', { name: 'Copy token' }).click();
    await created.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ciToken);
    const row = page.getByTestId('token-ci');
    await expect.poll(() => row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain('audit:read');
    expect(await row.textContent()).not.toContain('portal:create');
    expect(await row.textContent()).toContain('2099');
    expect(await row.textContent()).toContain('never'); // last used
    await created.getByRole('button', { name: 'I have copied it' }).click();
    await created.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(ciToken);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(ciToken); // only the list, never the token again
    const listed = await t.api<{ tokens: Array<{ id: string; name: string; expiresAt: string | null }> }>(
      'GET',
      '/v1/organizations/acme/tokens',
    );
    const ci = listed.body.tokens.find((x) => x.name === 'ci');
    ciTokenId = ci?.id ?? '';
    expect(ci?.expiresAt?.startsWith('2099-12-31') || ci?.expiresAt?.startsWith('2100-01-01')).toBe(true);

    // A second token, revoked after a confirmation: the host refuses it from then on.
    await form.getByLabel('Name').fill('old');
    await form.getByRole('checkbox', { name: /^deliveries:read / }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const oldToken = (await page.getByTestId('created-token').textContent()) ?? '';
    expect((await t.api('GET', '/v1/whoami', undefined, oldToken)).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const oldRow = page.getByTestId('token-old');
    await oldRow.getByRole('button', { name: 'Revoke old' }).click();
    await oldRow.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => oldRow.textContent()).toContain('Revoked');
    expect(await oldRow.getByRole('button', { name: 'Revoke old' }).count()).toBe(0);
    expect((await t.api('GET', '/v1/whoami', undefined, oldToken)).status).toBe(401);
  });

  it("operator: the organization's page lists the spaces it owns and its installations only", async () => {
    // Installations of two organizations, made through the API where the directory says each owns a space.
    for (const [space, organization] of [
      ['acme-docs', 'acme'],
      ['globex-docs', 'globex'],
    ] as const) {
      const owned = await t.api('PUT', `/v1/spaces/${space}/owner`, { organization });
      expect(owned.status).toBe(200);
      const installed = await t.api<{ id: string; owner?: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space,
        configuration: { url: receiverUrl },
      });
      expect(installed.status).toBe(201);
      expect(installed.body.owner).toBe(organization);
      if (organization === 'acme') acmeInstallation = installed.body.id;
      else globexInstallation = installed.body.id;
    }
    await page.reload();
    await expect.poll(() => page.getByTestId('resources').textContent()).toContain('acme-docs');
    const installations = page.getByRole('table', { name: 'Installations of the organization' });
    await expect.poll(() => installations.textContent()).toContain(acmeInstallation);
    expect(await installations.textContent()).not.toContain(globexInstallation);
    expect(await page.getByTestId('resources').textContent()).not.toContain('globex-docs');
    await shot('organizations');
  });

  it('operator: "Open subscriber portal" shows a link on the content origin, its expiry and a copy button', async () => {
    await page.goto(`${t.url}/installations/${acmeInstallation}`);
    await page.getByRole('heading', { name: 'Subscriber portal' }).waitFor();
    expect(await page.getByText('owned by acme').count()).toBe(1);
    await page.getByLabel('Valid for').selectOption('60');
    const started = Date.now();
    await page.getByRole('button', { name: 'Open subscriber portal' }).click();
    const link = page.getByTestId('portal-session').getByRole('link');
    await link.waitFor();
    const url = (await link.getAttribute('href')) ?? '';
    expect(url.startsWith(`${t.host.contentUrl}/portal/#token=pps_`)).toBe(true);
    expect(new URL(t.host.contentUrl).origin).not.toBe(new URL(t.url).origin);
    const expires = await page.getByTestId('portal-session').locator('time').getAttribute('datetime');
    const ttl = Date.parse(expires ?? '') - started;
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThan(61 * 60_000);
    await page.getByRole('button', { name: 'Copy link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  });

  it('operator: the audit log lists the token creation with the operator as actor; filters; "Load more"', async () => {
    // More entries than a page: 55 tokens of globex.
    for (let i = 0; i < 55; i++) {
      const made = await t.api('POST', '/v1/organizations/globex/tokens', {
        name: `bulk-${i}`,
        scopes: ['deliveries:read'],
      });
      expect(made.status).toBe(201);
    }
    await page.getByRole('link', { name: 'Audit' }).click();
    const table = page.getByRole('table', { name: 'Audit entries' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    expect(await rows.first().textContent()).toContain('bulk-54'); // newest first
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const all = await t.api<{ entries: unknown[] }>('GET', '/v1/audit?limit=500');
    expect(await rows.count()).toBe(all.body.entries.length);

    await page.getByLabel('Organization').selectOption('acme');
    await expect.poll(() => table.textContent()).not.toContain('globex');
    await page.getByLabel('Action').fill('token.create');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect
      .poll(async () => new Set(await rows.locator('td[data-label="Action"]').allTextContents()))
      .toEqual(new Set(['token.create']));
    const ciRow = rows.filter({ hasText: ciTokenId });
    expect(await ciRow.locator('td[data-label="Who"]').textContent()).toBe('operator');
    expect(await ciRow.locator('td[data-label="What changed"]').textContent()).toContain(
      '"scopes":["installations:manage","deliveries:read","tokens:manage","audit:read"]',
    );
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows.first().textContent()).toContain('bulk-54');
    await page.getByLabel('Organization').selectOption('acme');
    await expect.poll(() => table.textContent()).not.toContain('globex');
    await shot('audit');
  });

  it('fits the new pages in a 390 px wide window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, heading] of [
        ['/installations', 'Installations'],
        ['/organizations', 'Organizations'],
        ['/organizations/acme', 'Acme Inc.'],
        ['/audit', 'Audit log'],
        [`/installations/${acmeInstallation}`, 'Webhooks'],
      ] as const) {
        await page.goto(`${t.url}${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.locator('table, .empty, .card').first().waitFor();
        await fitsWidth(390);
      }
      // an expanded delivery with its attempts table fits too
      const hook = await t.api<{ id: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space: 'phone-space',
        configuration: { url: receiverUrl, space_content_updated: true },
      });
      expect(hook.status).toBe(201);
      await t.contentUpdated('phone-space', 'r1');
      await page.goto(`${t.url}/installations/${hook.body.id}`);
      await page.getByTestId('attempt').first().waitFor({ state: 'attached' });
      await page.getByTestId('delivery').first().locator('summary').click();
      await page.getByTestId('attempt').first().waitFor();
      await fitsWidth(390);
      await page.goto(`${t.url}/organizations/acme`);
      await page.getByTestId('token-ci').waitFor();
      await fitsWidth(390);
      await page.screenshot({ path: join(SHOTS, 'organization-narrow.png'), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1200, height: 860 });
    }
  });

  it("an organization token: sees only its organization's installations, no host status; refusals name the scope", async () => {
    await page.goto(`${t.url}/integrations`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or organization token').fill(ciToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(await page.getByTestId('principal').textContent()).toBe('Organization acme · token ci');
    expect(await navLabels()).toEqual([...NAVIGATION.organization, 'API']);

    await page.getByRole('link', { name: 'Installations' }).click();
    const list = page.locator('table.table');
    await expect.poll(() => list.textContent()).toContain(acmeInstallation);
    expect(await list.textContent()).not.toContain(globexInstallation);
    expect(await page.getByRole('heading', { name: 'Space editor' }).count()).toBe(0);

    // The host status page: refused in words, and never asked for.
    const statusCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/status') statusCalls.push(r.url());
    });
    await page.goto(`${t.url}/status`);
    await page.getByRole('heading', { name: 'Not available with this token' }).waitFor();
    expect(await page.getByText('The host status needs the operator token.').count()).toBe(1);
    expect(statusCalls).toEqual([]);

    // Another organization's installation: the host answers 404, the page says so.
    await page.goto(`${t.url}/installations/${globexInstallation}`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not found');

    // A refused action: the host's message, which names the missing scope.
    await page.goto(`${t.url}/installations/${acmeInstallation}`);
    await page.getByRole('button', { name: 'Open subscriber portal' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'portal:create' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('lacks the scope `portal:create`');

    // Its organization page: its tokens; it can give only the scopes it holds.
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.getByTestId('token-ci').waitFor();
    expect(await page.getByTestId('token-ci').textContent()).toContain('(this token)');
    const form = page.getByRole('form', { name: 'New token' });
    expect(await form.getByRole('checkbox', { name: /^portal:create / }).isDisabled()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /^audit:read / }).isDisabled()).toBe(false);

    // Its audit log: its own entries only.
    await page.getByRole('link', { name: 'Audit' }).click();
    const table = page.getByRole('table', { name: 'Audit entries' });
    await expect.poll(() => table.textContent()).toContain(ciTokenId);
    expect(await table.textContent()).not.toContain('globex');
    expect(await page.getByLabel('Organization').count()).toBe(0);
  });
});
