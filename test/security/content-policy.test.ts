import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../packages/host/test/backends.js';
import { startTestHost, type TestHost } from '../../packages/host/test/helpers.js';
import { CHROMIUM } from './support.js';

/**
 * The manifest's `contentSecurityPolicy` on what the host serves for the integration (docs/security.md
 * "The integration's own policy"): in real Chromium, a webframe page loads a script from the loopback
 * origin its manifest allows, and the one from another loopback origin is blocked before any request
 * leaves the browser; over HTTP, both origins answer the composed policy, sandbox first.
 */

/** A static server on 127.0.0.1 answering `/x.js` (a script recording its origin) and `/frame.html`. */
async function scriptServer(
  name: string,
  frameOf?: () => string,
): Promise<{ origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/frame.html' && frameOf) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="${frameOf()}"></iframe>`);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/javascript' })
      .end(`window.loaded = (window.loaded || []).concat(${JSON.stringify(name)});`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The webframe page: two scripts, then what loaded and which loads the policy blocked. */
function page(allowed: string, other: string): string {
  return `<!doctype html><html><body><pre id="out">running</pre>
<script>
window.blocked = [];
const show = () => { document.getElementById('out').textContent = JSON.stringify({ loaded: window.loaded || [], blocked }); };
addEventListener('securitypolicyviolation', (e) => { blocked.push(e.effectiveDirective + ' ' + e.blockedURI); show(); });
addEventListener('load', show);
</script>
<script src="${allowed}/x.js"></script>
<script src="${other}/x.js"></script>
</body></html>`;
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch(CHROMIUM);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  let allowed: Awaited<ReturnType<typeof scriptServer>>;
  let other: Awaited<ReturnType<typeof scriptServer>>;
  let endpoint = '';

  beforeAll(async () => {
    t = await startTestHost({}, backend);
    allowed = await scriptServer('allowed', () => `${endpoint}/page`);
    other = await scriptServer('other');
    const bundle = `export default { async fetch() {
      return new Response(${JSON.stringify(page(allowed.origin, other.origin))}, { headers: { 'content-type': 'text/html' } });
    } };`;
    const manifest = `name: csp-frame\ntitle: CSP frame\ndescription: webframe with a script\norganization: test\nvisibility: private\nscopes: []\ncontentSecurityPolicy:\n  script-src: ${allowed.origin}\n  img-src: https://img.example\n`;
    const published = await t.api('POST', '/v1/integrations', { manifest, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<{ urls: { publicEndpoint: string } }>('POST', '/v1/installations', {
      integration: 'csp-frame',
      space: 'space-csp',
      configuration: {},
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    endpoint = installed.body.urls.publicEndpoint;
  }, 90_000);
  afterAll(async () => {
    await allowed?.close();
    await other?.close();
    await t?.close();
  });

  it('in Chromium, a webframe loads the script its manifest allows; another origin is blocked', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${allowed.origin}/frame.html`);
    const frame = await expect
      .poll(() => tab.frames().find((f) => f.url().startsWith(endpoint)), { timeout: 10_000 })
      .toBeDefined()
      .then(() => tab.frames().find((f) => f.url().startsWith(endpoint)));
    // The violation is reported by an event that may come after `load`: wait for both.
    const read = async () =>
      JSON.parse((await frame?.locator('#out').textContent()) ?? '{}') as {
        loaded?: string[];
        blocked?: string[];
      };
    await expect.poll(async () => (await read()).blocked?.length ?? 0, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await read()).loaded, { timeout: 10_000 }).toEqual(['allowed']);
    expect((await read()).blocked).toEqual([`script-src-elem ${other.origin}/x.js`]);
    expect(allowed.hits).toContain('/x.js');
    expect(other.hits).toEqual([]);
    await context.close();
  }, 60_000);

  it('answers the composed policy on the content origin and on the API origin', async () => {
    for (const url of [`${endpoint}/page`, `${t.host.url}${new URL(endpoint).pathname}/page`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      const content = new URL(t.host.contentUrl).origin;
      expect(policy.startsWith('sandbox allow-scripts allow-forms allow-popups; ')).toBe(true);
      expect(policy).toContain(`script-src ${content} 'unsafe-inline' ${allowed.origin};`);
      expect(policy).toContain(`img-src ${content} data: blob: https://img.example;`);
      expect(policy).toContain(`connect-src ${content};`);
      expect(policy).not.toContain(other.origin);
      expect(policy).not.toContain(new URL(t.host.url).origin);
    }
  });

  it("refuses a manifest adding 'unsafe-eval' with the line and column, and stores nothing", async () => {
    const manifest = `name: csp-eval\ntitle: CSP eval\ndescription: d\norganization: test\nvisibility: private\nscopes: []\ncontentSecurityPolicy:\n  script-src: https://a.example 'unsafe-eval'\n`;
    const published = await t.api<{ error: { code: string; message: string } }>('POST', '/v1/integrations', {
      manifest,
      bundle: 'export default { fetch() { return new Response("x"); } };',
    });
    expect(published.status).toBe(400);
    expect(published.body.error.code).toBe('invalid_manifest');
    expect(published.body.error.message).toMatch(
      /first: 8:15 contentSecurityPolicy\.script-src: `script-src`: `'unsafe-eval'` is not allowed/,
    );
    expect((await t.api('GET', '/v1/integrations/csp-eval')).status).toBe(404);
  });
});
