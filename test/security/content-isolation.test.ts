import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestHost, type TestHost } from '../../packages/host/test/helpers.js';
import { buildDashboard, CHROMIUM, publishAndInstall } from './support.js';

/**
 * Integration content never runs with the origin of the dashboard and the API (docs/security.md
 * "Integration content"): in real Chromium, a page an integration serves tries to take the operator
 * token, call the API with it, plant a cookie on the host and frame the dashboard, and gets nothing —
 * served from the content origin, and served from the API's own origin too.
 */

const TOKEN_KEY = 'platform.adminToken';

/** The hostile page: every attempt writes its outcome into #out. */
const PAGE = `<!doctype html><html><body><pre id="out">running</pre><script>
(async () => {
  const api = new URLSearchParams(location.search).get('api');
  const r = {};
  let token = null;
  try { token = sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)}); r.token = token; } catch (e) { r.token = 'denied ' + e.name; }
  try { r.localStorage = localStorage.length; } catch (e) { r.localStorage = 'denied ' + e.name; }
  try { document.cookie = 'planted=1; path=/'; r.cookie = document.cookie; } catch (e) { r.cookie = 'denied ' + e.name; }
  for (const [name, init] of [
    ['apiWithToken', { headers: { authorization: 'Bearer ' + token } }],
    ['apiWithCredentials', { credentials: 'include' }],
  ]) {
    try { const res = await fetch(api + '/v1/status', init); r[name] = res.status + ' ' + (await res.text()).slice(0, 40); }
    catch (e) { r[name] = 'failed ' + e.name; }
  }
  const frame = document.createElement('iframe');
  frame.src = api + '/';
  document.body.appendChild(frame);
  await new Promise((resolve) => { frame.onload = resolve; setTimeout(resolve, 3000); });
  try { r.frame = frame.contentWindow.document.body.innerHTML.length; } catch (e) { r.frame = 'denied ' + e.name; }
  document.getElementById('out').textContent = JSON.stringify(r);
})();
</script></body></html>`;

const BUNDLE = `export default { async fetch() {
  return new Response(${JSON.stringify(PAGE)}, { headers: {
    'content-type': 'text/html; charset=utf-8',
    'set-cookie': 'session=evil; Path=/',
    'access-control-allow-origin': '*',
  } });
} };`;

let t: TestHost;
let browser: Browser;
let endpoint: string;

beforeAll(async () => {
  buildDashboard();
  t = await startTestHost();
  endpoint = (await publishAndInstall(t, 'hostile-page', BUNDLE)).urls.publicEndpoint;
  browser = await chromium.launch(CHROMIUM);
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Signs the dashboard in (token in this tab's sessionStorage), then opens `url` in the same tab. */
async function visitAfterSignIn(page: Page, url: string): Promise<Record<string, unknown>> {
  await page.goto(`${t.host.url}/#token=${encodeURIComponent(ADMIN_TOKEN)}`);
  await expect.poll(() => page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBe(ADMIN_TOKEN);
  await page.goto(url);
  await expect.poll(() => page.locator('#out').textContent(), { timeout: 10_000 }).not.toBe('running');
  return JSON.parse((await page.locator('#out').textContent()) ?? '{}') as Record<string, unknown>;
}

describe('integration content in Chromium', () => {
  it('is advertised on an origin other than the API and dashboard', () => {
    expect(new URL(endpoint).origin).not.toBe(new URL(t.host.url).origin);
    expect(new URL(endpoint).origin).toBe(new URL(t.host.contentUrl).origin);
  });

  for (const where of ['content origin', 'API origin'] as const) {
    it(`served from the ${where}: no token, no API call, no cookie, no framed dashboard`, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const base = where === 'content origin' ? endpoint : `${t.host.url}${new URL(endpoint).pathname}`;
      const result = await visitAfterSignIn(page, `${base}/page?api=${encodeURIComponent(t.host.url)}`);

      expect(result.token).toMatch(/^denied SecurityError/);
      expect(result.localStorage).toMatch(/^denied SecurityError/);
      expect(result.cookie).toMatch(/^denied SecurityError/);
      // The API answers no other origin's script (no CORS), and a token it never got cannot be used.
      expect(String(result.apiWithToken)).toMatch(/^(failed TypeError|401)/);
      expect(String(result.apiWithCredentials)).toMatch(/^(failed TypeError|401)/);
      expect(String(result.frame)).toMatch(/^denied/);
      // Chromium refused to render the dashboard in the frame (frame-ancestors 'none', X-Frame-Options).
      const framed = page.frames().filter((f) => f !== page.mainFrame());
      expect(framed).toHaveLength(1);
      expect(framed[0]?.url()).not.toBe(`${t.host.url}/`);

      // Nothing was planted on the host: no cookie in the browser for it, none visible to the dashboard.
      expect((await context.cookies()).map((c) => c.name)).toEqual([]);
      await page.goto(`${t.host.url}/`);
      expect(await page.evaluate(() => document.cookie)).toBe('');
      expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBe(ADMIN_TOKEN);
      await context.close();
    }, 60_000);
  }

  it('answers integration content with the sandbox policy and without its Set-Cookie or CORS', async () => {
    const onApi = await fetch(`${t.host.url}${new URL(endpoint).pathname}/page`);
    expect(onApi.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect(onApi.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect(onApi.headers.get('set-cookie')).toBeNull();
    expect(onApi.headers.get('access-control-allow-origin')).toBeNull();
    expect(onApi.headers.get('x-content-type-options')).toBe('nosniff');
    const onContent = await fetch(`${endpoint}/page`);
    expect(onContent.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect(onContent.headers.get('set-cookie')).toBeNull();
    // The content origin serves public endpoints only: no API, no dashboard, no token accepted.
    const api = await fetch(`${t.host.contentUrl}/v1/status`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(api.status).toBe(404);
    expect((await fetch(`${t.host.contentUrl}/`)).status).toBe(404);
  });
});
