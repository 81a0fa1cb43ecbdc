import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../dashboard/test/chromium.js';
import { BACKENDS } from './backends.js';
import { bundleIntegration, readRepoFile, repoRoot, startTestHost, type TestHost } from './helpers.js';
import { startOidcProvider, type TestOidcProvider } from './oidc-provider.js';

/**
 * Visitor authentication (docs/visitor-authentication.md) end to end: the visitor-oidc example under
 * workerd guards a site; Chromium opens a page of it, is sent to a real OpenID Connect provider
 * (`oidc-provider` on loopback), signs in, comes back through the integration's callback with a signed
 * token, which the host verifies before it sets the session cookie and shows the page.
 */

interface Invocations {
  invocations: Array<{ eventType: string }>;
}

/** An HS256 JWT signed with a secret the host never gave out. */
function forgedToken(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'mallory', exp })}.${Buffer.alloc(32, 1).toString('base64url')}`;
}

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  let idp: TestOidcProvider;
  let browser: Browser;
  let installationId = '';
  let site = '';

  beforeAll(async () => {
    idp = await startOidcProvider();
    // The integration calls the provider's token endpoint on loopback.
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    const manifest = await readRepoFile('examples/visitor-oidc/platform-manifest.yaml');
    const bundle = await bundleIntegration(join(repoRoot, 'examples/visitor-oidc'), 'src/index.ts');
    const published = await t.api('POST', '/v1/integrations', { manifest, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<{ id: string; status: string; urls: { publicEndpoint: string } }>(
      'POST',
      '/v1/installations',
      {
        integration: 'visitor-oidc',
        site: 'site_docs',
        configuration: {
          issuer: idp.issuer,
          authorization_endpoint: idp.authorizationEndpoint,
          token_endpoint: idp.tokenEndpoint,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
        },
      },
    );
    expect(installed.body.status).toBe('active');
    installationId = installed.body.id;
    idp.register(`${installed.body.urls.publicEndpoint}/visitor-auth/response`);
    site = `${t.host.contentUrl}/sites/site_docs`;
    browser = await chromium.launch(CHROMIUM);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
  });

  const signInCalls = async () => {
    const res = await t.api<Invocations>('GET', `/v1/installations/${installationId}/logs`);
    return res.body.invocations.filter((i) => i.eventType === 'fetch_visitor_authentication').length;
  };

  it('sends a visitor without a session to the provider, and shows the page once they signed in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site}/guide/setup?tab=2`);
    // The provider's own sign-in page (any login, any password), then its consent page.
    expect(new URL(page.url()).origin).toBe(idp.issuer);
    await page.fill('input[name=login]', 'ada');
    await page.fill('input[name=password]', 'any password');
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.origin === idp.issuer && url.pathname.startsWith('/interaction/'));
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.href.startsWith(site));

    // Back on the page asked for, the token gone from the address.
    expect(page.url()).toBe(`${site}/guide/setup?tab=2`);
    expect(await page.textContent('#location')).toBe('/guide/setup?tab=2');
    expect(await page.textContent('#visitor')).toContain('Signed in as Visitor ada');
    const claims = JSON.parse((await page.textContent('#claims')) ?? '{}');
    expect(claims).toEqual({
      sub: 'ada',
      name: 'Visitor ada',
      email: 'ada@example.com',
      email_verified: true,
    });
    const [cookie, ...others] = (await context.cookies(site)).filter((c) => c.name === 'platform_visitor');
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ path: '/sites/site_docs', httpOnly: true, sameSite: 'Lax' });
    expect(await signInCalls()).toBe(1);

    // The session holds: other pages of the site open without the provider.
    await page.goto(`${site}/reference`);
    expect(await page.textContent('#location')).toBe('/reference');
    expect(await signInCalls()).toBe(1);
    // The session's claims, for the site's own pages (the browser's cookie, same origin).
    const session = await context.request.get(`${site}/~visitor`);
    expect(await session.json()).toMatchObject({ authenticated: true, claims: { sub: 'ada' } });
    expect(await (await fetch(`${site}/~visitor`)).json()).toEqual({ authenticated: false, claims: null });

    // Logging out removes the cookie (the example sends visitors nowhere else: the host says so).
    await page.click('text=Log out');
    expect(await page.textContent('#problem')).toBe('You are logged out of this site.');
    expect((await context.cookies(site)).filter((c) => c.name === 'platform_visitor')).toEqual([]);
    const again = await context.request.get(`${site}/reference`, { maxRedirects: 0 });
    expect(again.status()).toBe(302);
    expect(again.headers().location?.startsWith(`${idp.authorizationEndpoint}?`)).toBe(true);
    expect(await signInCalls()).toBe(3);
    await context.close();
  });

  it('refuses a token the installation did not sign, and sets no session', async () => {
    const refused = await fetch(`${site}/guide?jwt_token=${forgedToken()}`, { redirect: 'manual' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await refused.text()).toContain('does not match this site installation');
    const forgedCookie = await fetch(`${site}/guide`, {
      redirect: 'manual',
      headers: { cookie: 'platform_visitor=v1.eyJzIjoic2l0ZV9kb2NzIn0.AAAA' },
    });
    expect(forgedCookie.status).toBe(302);
    const signIn = new URL(forgedCookie.headers.get('location') ?? '');
    expect(signIn.origin + signIn.pathname).toBe(idp.authorizationEndpoint);
    expect(signIn.searchParams.get('client_id')).toBe(idp.clientId);
    expect(signIn.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('leaves a site without a visitor-auth installation public, and closes a site whose guard is not active', async () => {
    const open = await fetch(`${t.host.contentUrl}/sites/site_open/`);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain('This site is public.');
    const pending = await t.api<{ status: string }>('POST', '/v1/installations', {
      integration: 'visitor-oidc',
      site: 'site_pending',
    });
    expect(pending.body.status).toBe('pending');
    const closed = await fetch(`${t.host.contentUrl}/sites/site_pending/`, { redirect: 'manual' });
    expect(closed.status).toBe(503);
    expect(await closed.text()).toContain('is pending');
  });
});
