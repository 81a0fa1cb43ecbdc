import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type DashboardHost, expectFitsWidth, SHOTS, useHostAndBrowser } from './harness';

// Choosing a webhook's signature scheme on its installation page, in Chromium against a real host: a wrong
// combination is shown inline under its field (the host's verdict) and leaves the installation pending;
// ed25519 shows the public key the API serves; the page fits 1400 and 390 px wide.

let t: DashboardHost;
let page: Page;
let id = '';

useHostAndBrowser({}, async (session) => {
  ({ t, page } = session);
  const configuration = { url: 'http://127.0.0.1:9/hook', space_content_updated: true };
  id = await t.installWebhook({ space: 'docs-signing' }, configuration);
});

const fitsWidth = (width: number) => expectFitsWidth(page, width);

describe('signature scheme on the installation page', () => {
  it('shows a wrong combination inline, then ed25519 with the public key of the API; fits 1400 and 390 px', async () => {
    await page.goto(`${t.url}/installations/${id}`);
    await page.getByRole('heading', { name: 'Signature', exact: true }).waitFor();
    expect(await page.getByTestId('signature-scheme').textContent()).toBe('platform');
    expect(await page.locator('#field-signature_scheme').inputValue()).toBe('platform');

    // Both header sets with the platform scheme: the host's error under the field, status pending.
    await page.locator('#field-signature_both_headers').click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const error = page.getByTestId('error-signature_both_headers');
    await expect.poll(() => error.textContent()).toContain('choose standard-webhooks or ed25519');
    expect(await page.getByTestId('installation-status').textContent()).toMatch(/^Pending/);
    // the switch names its error for assistive technology
    expect(await page.locator('#field-signature_both_headers').getAttribute('aria-describedby')).toContain(
      'field-signature_both_headers-error',
    );
    await page
      .getByRole('region', { name: 'Configuration' })
      .screenshot({ path: join(SHOTS, 'webhook-signing-invalid.png') });

    // ed25519 (keeping both header sets): valid, active, and the public key shown is the API's.
    await page.locator('#field-signature_scheme').selectOption('ed25519');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByTestId('installation-status').textContent()).toBe('Active');
    await expect.poll(() => page.getByTestId('signature-scheme').textContent()).toBe('ed25519');
    const key = await t.api<{ publicKey: string }>('GET', `/v1/installations/${id}/webhook-public-key`);
    await expect.poll(() => page.getByTestId('webhook-public-key').textContent()).toBe(key.body.publicKey);
    await expect
      .poll(() => page.getByText('also sends X-Platform-Signature while receivers migrate').count())
      .toBe(1);
    // Rotating the key: the new key is shown, the previous one with its expiry, as the API says.
    await page.getByRole('button', { name: 'Rotate key…' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    await expect
      .poll(() => page.getByTestId('webhook-public-key').textContent())
      .not.toBe(key.body.publicKey);
    const rotated = await t.api<{ publicKey: string; previous: { publicKey: string } }>(
      'GET',
      `/v1/installations/${id}/webhook-public-key`,
    );
    expect(rotated.body.previous.publicKey).toBe(key.body.publicKey);
    expect(await page.getByTestId('webhook-public-key').textContent()).toBe(rotated.body.publicKey);
    expect(await page.getByTestId('webhook-previous-public-key').textContent()).toContain(key.body.publicKey);
    await fitsWidth(1400);
    await page
      .getByRole('region', { name: 'Signature' })
      .screenshot({ path: join(SHOTS, 'webhook-signing-1400.png') });

    await page.setViewportSize({ width: 390, height: 844 });
    await fitsWidth(390);
    await page
      .getByRole('region', { name: 'Signature' })
      .screenshot({ path: join(SHOTS, 'webhook-signing-390.png') });
    await page.setViewportSize({ width: 1400, height: 900 });

    // standard-webhooks: Reveal shows the secret in the spelling Standard Webhooks libraries take.
    await page.locator('#field-signature_scheme').selectOption('standard-webhooks');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByTestId('signature-scheme').textContent()).toBe('standard-webhooks');
    await page.getByRole('button', { name: 'Reveal' }).click();
    const secret = await t.api<{ standardWebhooks: { secret: string } }>(
      'GET',
      `/v1/installations/${id}/webhook-secret`,
    );
    await expect
      .poll(() => page.getByTestId('webhook-secret-standard').textContent())
      .toBe(secret.body.standardWebhooks.secret);
  });
});
