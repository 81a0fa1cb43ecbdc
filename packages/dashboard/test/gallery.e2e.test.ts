import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  buildAll,
  type DashboardHost,
  launchBrowser,
  repoRoot,
  startDashboardHost,
} from './harness';

const SHOTS = join(repoRoot, 'docs/screenshots');

let t: DashboardHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;

beforeAll(async () => {
  buildAll();
  await mkdir(SHOTS, { recursive: true });
  t = await startDashboardHost();
  browser = await launchBrowser({ width: 1200, height: 900 });
  page = browser.page;
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Polls with a bound generous for a loaded 2-core machine. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const log = () => page.getByRole('list', { name: 'Dispatched actions' }).textContent();

/**
 * Opens the gallery in a new document. The link differs from the page the test before left only in
 * its fragment, so going to it alone would not reload: the app would take the token from the
 * fragment and draw a new gallery while this test already drives the old one.
 */
async function openGallery(): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${t.url}/gallery#token=${encodeURIComponent(ADMIN_TOKEN)}`);
  await page.getByRole('heading', { name: 'ContentKit gallery', level: 1 }).waitFor();
}

describe('ContentKit gallery in Chromium', () => {
  it('draws every element, driven with the keyboard, and dispatches actions with state bound', async () => {
    await openGallery();
    const gallery = page.locator('.contentkit').first();
    for (const selector of [
      '.ck-block',
      '.ck-hstack',
      '.ck-vstack',
      '.ck-box',
      '.ck-divider',
      '.ck-card',
      '.ck-markdown strong',
      '.ck-hint',
      'a[href="https://example.com/docs"]',
      's.ck-text-strikethrough',
      'code.ck-text-code',
      'img.ck-image',
      'textarea.ck-code',
      'pre.ck-code',
      'iframe.ck-webframe',
    ]) {
      expect(await gallery.locator(selector).count(), selector).toBeGreaterThan(0);
    }

    // Inputs bound to state: typed, toggled and chosen with the keyboard only.
    await page.getByLabel('Title').focus();
    await page.keyboard.type('Runbook');
    await page.getByRole('switch', { name: 'Sync on save' }).focus();
    await page.keyboard.press('Space');
    expect(await page.getByRole('switch', { name: 'Sync on save' }).isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'I agree' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('radio', { name: 'Large' }).check();
    await page.getByLabel('Branch').selectOption('next');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await poll(log).toContain('{"action":"save","title":"Runbook"}');

    // A confirmation before a dangerous action; focus lands on the confirming button.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete?' });
    await poll(() => confirm.textContent()).toContain('This cannot be undone.');
    await page.keyboard.press('Enter');
    await poll(log).toContain('{"action":"delete"}');

    // Built-in actions: a modal opens (Escape closes it), props update resolves state bindings.
    await page.getByRole('button', { name: 'Open preview' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview dialog' });
    await dialog.getByRole('heading', { name: 'Preview' }).waitFor();
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await poll(log).toContain('"action":"@ui.modal.open","componentId":"preview"');

    // The editable code block: edits update the state the webframe receives over the bridge.
    const code = page.getByRole('textbox', { name: 'mermaid (editable)' });
    await code.fill('graph LR\n  X --> Y');
    await page.getByRole('button', { name: 'Update props' }).click();
    await poll(log).toContain('props saved: {"code":"graph LR\\n  X --> Y"}');
    await poll(log).toContain('"action":"code-changed"');
    const frame = page.frameLocator('iframe.ck-webframe');
    await poll(() => frame.locator('#out').textContent()).toContain('X --> Y');
    await expect
      .poll(() => page.locator('iframe.ck-webframe').getAttribute('style'))
      .toContain('height: 80px');
    const image = page.getByRole('img', { name: 'A sample image' });
    await expect
      .poll(() => image.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)))
      .toBe(320);
    await page.screenshot({ path: join(SHOTS, 'gallery.png'), fullPage: true });
  });

  it('draws a configuration screen: labelled fields name and describe their control, values reach state', async () => {
    await openGallery();
    const screen = page.locator('.ck-configuration');
    await screen.waitFor();
    // The field label is the control's accessible name, the hint its description.
    const token = screen.getByRole('textbox', { name: 'API token', exact: true });
    const described = (el: HTMLElement) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    expect(await token.evaluate(described)).toBe('Found in Settings.');
    const notify = screen.getByRole('switch', { name: 'Notifications', exact: true });
    expect(await notify.evaluate(described)).toBe('Post a message on each change.');
    const save = screen.getByRole('button', { name: 'Apply settings' });
    expect(await save.evaluate(described)).toBe('Connection Applies the token and the notification choice.');

    // Clicking the label focuses its control; then the keyboard alone fills the screen.
    await screen.getByText('API token', { exact: true }).click();
    expect(await token.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('tok_123');
    await page.keyboard.press('Tab');
    expect(await notify.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await notify.isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await poll(log).toContain('{"action":"save.config","token":"tok_123","notify":true}');
  });

  it('draws what ported integrations render: typeless controls, onValueChange, acceptInput, URL parts, disabled', async () => {
    const requested: string[] = [];
    const branches = (url: URL) => url.pathname === '/gallery/branches';
    await page.route(branches, async (route) => {
      requested.push(route.request().url());
      await route.fulfill({ json: [{ id: 'release', label: 'release' }] });
    });
    await openGallery();
    const toolbar = page.getByRole('toolbar', { name: 'Block controls' }).nth(1);
    await toolbar.getByRole('button', { name: 'Edit settings' }).click();
    await poll(log).toContain('{"action":"open.settings"}');

    // acceptInput: a typed value that is not an option is kept; onValueChange reads the new state.
    const repo = page.getByRole('combobox', { name: 'Repository', exact: true });
    await repo.fill('handbook');
    await repo.press('Tab');
    await poll(log).toContain('{"action":"select.repo","repo":"handbook"}');

    // Options from { host, pathname, query }: the query's binding is read from the state.
    await page.getByRole('combobox', { name: 'Upstream ref', exact: true }).focus();
    await poll(() => requested.at(-1) ?? '').toMatch(/\/gallery\/branches\?repo=handbook&q=$/);

    const mirror = page.getByRole('switch', { name: 'Mirror', exact: true });
    await mirror.focus();
    await page.keyboard.press('Space');
    await poll(log).toContain('{"action":"toggle.mirror","mirror":true}');

    const locked = page.getByRole('textbox', { name: 'Locked setting', exact: true });
    expect(await locked.isDisabled()).toBe(true);
    expect(await locked.inputValue()).toBe('managed by the operator');
    await page.unroute(branches);
  });
});
