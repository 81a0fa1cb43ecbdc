import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { bundleIntegration, readRepoFile, startTestHost, type TestHost } from './helpers.js';

/**
 * Published-page scripts (docs/published-scripts.md) end to end: the site-analytics example bundled and
 * run in workerd, its script served on the content origin per site, cached per configuration, listed
 * for the site renderer with its CSP sources; the limits of every invocation hold.
 */

interface Listed {
  installationId: string;
  integration: string;
  url: string;
  contentSecurityPolicy: Record<string, string[]>;
}
interface ErrorBody {
  error: { code: string; message: string };
}

/** A raw first-party bundle under the old scope name, with a hook answering `answer` (JS source of a Response). */
function rawIntegration(name: string, answer: string) {
  return {
    manifest: `name: ${name}\ntitle: ${name}\ndescription: d\norganization: test\nvisibility: private\ntarget: site\nscopes:\n  - space:script:inject\n`,
    bundle: `export default { async fetch() { return ${answer}; } };`,
    firstParty: true,
  };
}

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  let manifest = '';
  let bundle = '';

  beforeAll(async () => {
    t = await startTestHost(
      { PLATFORM_INVOCATION_TIMEOUT_MS: '2000', PLATFORM_INVOCATION_MAX_RESPONSE_BYTES: String(64 * 1024) },
      backend,
    );
    manifest = await readRepoFile('examples/site-analytics/platform-manifest.yaml');
    bundle = await bundleIntegration('examples/site-analytics', 'src/index.ts');
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (site: string) => {
    const res = await t.api<{ scripts: Listed[] }>('GET', `/v1/sites/${site}/published-scripts`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.scripts;
  };
  const scriptCalls = async (installation: string) => {
    const res = await t.api<{ invocations: Array<{ eventType: string }> }>(
      'GET',
      `/v1/installations/${installation}/logs`,
    );
    return res.body.invocations.filter((i) => i.eventType === 'fetch_published_script').length;
  };

  it('publishes the internal scope only as first party', async () => {
    const refused = await t.api<ErrorBody>('POST', '/v1/integrations', { manifest, bundle });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/`site:script:inject` is an internal scope/);
    const published = await t.api<{ firstParty: boolean; scopes: string[] }>('POST', '/v1/integrations', {
      manifest,
      bundle,
      firstParty: true,
    });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect(published.body).toMatchObject({ firstParty: true, scopes: ['site:script:inject'] });
  });

  it('serves the installation script of a site from the content origin, cached until the configuration changes', async () => {
    const installed = await t.api<{ id: string; status: string }>('POST', '/v1/installations', {
      integration: 'site-analytics',
      site: 'site_docs',
      configuration: { domain: 'docs.example.com' },
    });
    expect(installed.body.status).toBe('active');
    const pending = await t.api<{ status: string }>('POST', '/v1/installations', {
      integration: 'site-analytics',
      site: 'site_unset',
    });
    expect(pending.body.status).toBe('pending');

    const [entry, ...others] = await list('site_docs');
    expect(others).toEqual([]);
    const content = new URL(t.host.contentUrl).origin;
    expect(entry).toEqual({
      installationId: installed.body.id,
      integration: 'site-analytics',
      url: expect.stringMatching(
        new RegExp(
          `^${content}/v1/sites/site_docs/integrations/site-analytics/script\\.js\\?v=[0-9a-f]{16}$`,
        ),
      ),
      contentSecurityPolicy: { 'connect-src': ['https://stats.example.com'], 'script-src': [content] },
    });
    expect(await list('site_unset')).toEqual([]);
    expect((await t.api('GET', '/v1/sites/site_docs/published-scripts', undefined, 'nope')).status).toBe(401);

    const first = await fetch(entry?.url ?? '');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, max-age=600');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await first.text();
    expect(text).toContain('"docs.example.com"');
    expect(text).toContain('"site_docs"');
    const again = await fetch(entry?.url ?? '');
    expect(await again.text()).toBe(text);
    const etag = again.headers.get('etag') ?? '';
    expect((await fetch(entry?.url ?? '', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(await scriptCalls(installed.body.id)).toBe(1);

    const patched = await t.api('PATCH', `/v1/installations/${installed.body.id}`, {
      configuration: { domain: 'help.example.com' },
    });
    expect(patched.status).toBe(200);
    const [moved] = await list('site_docs');
    expect(moved?.url).not.toBe(entry?.url);
    // The same path on the API origin (no token there either) answers the new script too.
    const onApi = await fetch(`${t.host.url}${new URL(moved?.url ?? '').pathname}`);
    expect(onApi.status).toBe(200);
    expect(await onApi.text()).toContain('"help.example.com"');
    expect(await scriptCalls(installed.body.id)).toBe(2);
  });

  it('answers 404 for a site without the integration, and 204 while the hook has no script', async () => {
    const missing = await fetch(
      `${t.host.contentUrl}/v1/sites/site_none/integrations/site-analytics/script.js`,
    );
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorBody).error.message).toMatch(
      /site:script:inject on site "site_none"/,
    );
    const none = rawIntegration('script-none', 'new Response(null, { status: 204 })');
    expect((await t.api('POST', '/v1/integrations', none)).status).toBe(201);
    await t.api('POST', '/v1/installations', { integration: 'script-none', site: 'site_raw' });
    // Its manifest says `space:script:inject`: stored, routed and listed as `site:script:inject`.
    expect((await list('site_raw')).map((s) => s.integration)).toEqual(['script-none']);
    const empty = await fetch(`${t.host.contentUrl}/v1/sites/site_raw/integrations/script-none/script.js`);
    expect(empty.status).toBe(204);
  });

  it('configures a site installation with the `space` settings of a manifest without `site` ones, and shows it as `spaceInstallation` too', async () => {
    // A raw bundle answering, as a script, the installation shapes of the environment it got.
    const echo = `export default { async fetch(request) {
      const env = JSON.parse((await request.formData()).get('environment'));
      const body = 'shapes(' + JSON.stringify({ site: env.siteInstallation, space: env.spaceInstallation }) + ')';
      return new Response(body, { headers: { 'content-type': 'application/javascript' } });
    } };`;
    const settings = (place: string) =>
      `  ${place}:\n    properties:\n      website_id: { type: string, title: Website, description: d }\n    required: [website_id]\n`;
    const publish = (name: string, places: string[]) =>
      t.api('POST', '/v1/integrations', {
        manifest: `${rawIntegration(name, '').manifest}configurations:\n${places.map(settings).join('')}`,
        bundle: echo,
        firstParty: true,
      });
    const shapesOf = async (name: string, site: string) => {
      const res = await fetch(`${t.host.contentUrl}/v1/sites/${site}/integrations/${name}/script.js`);
      expect(res.status).toBe(200);
      const text = await res.text();
      return JSON.parse(text.slice('shapes('.length, -1)) as {
        site?: { site: string; configuration: Record<string, unknown> };
        space?: { space: string; configuration: Record<string, unknown> };
      };
    };

    expect((await publish('script-space', ['space'])).status).toBe(201);
    const unset = await t.api<{ status: string; configurationErrors: Array<{ key: string }> }>(
      'POST',
      '/v1/installations',
      { integration: 'script-space', site: 'site_unset_space' },
    );
    expect(unset.body).toMatchObject({ status: 'pending', configurationErrors: [{ key: 'website_id' }] });
    const installed = await t.api<{ status: string }>('POST', '/v1/installations', {
      integration: 'script-space',
      site: 'site_space',
      configuration: { website_id: 'w_1' },
    });
    expect(installed.body.status).toBe('active');
    const typo = await t.api<ErrorBody>('POST', '/v1/installations', {
      integration: 'script-space',
      site: 'site_space_typo',
      configuration: { website: 'w_1' },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toMatch(
      /configuration\.website is not a setting of script-space; accepted: website_id/,
    );
    const shared = { configuration: { website_id: 'w_1' }, status: 'active' };
    expect(await shapesOf('script-space', 'site_space')).toEqual({
      site: expect.objectContaining({ site: 'site_space', ...shared }),
      space: expect.objectContaining({ space: '', ...shared }),
    });

    // Declaring `site` settings too: those configure the site installation; it is still shown as both.
    expect((await publish('script-both', ['space', 'site'])).status).toBe(201);
    await t.api('POST', '/v1/installations', {
      integration: 'script-both',
      site: 'site_both',
      configuration: { website_id: 'w_2' },
    });
    const both = await shapesOf('script-both', 'site_both');
    expect([both.site?.configuration, both.space?.configuration]).toEqual([
      { website_id: 'w_2' },
      { website_id: 'w_2' },
    ]);
    // Only `site` settings: no `spaceInstallation`.
    expect((await publish('script-site', ['site'])).status).toBe(201);
    await t.api('POST', '/v1/installations', {
      integration: 'script-site',
      site: 'site_only',
      configuration: { website_id: 'w_3' },
    });
    const siteOnly = await shapesOf('script-site', 'site_only');
    expect(siteOnly.space).toBeUndefined();
    expect(siteOnly.site?.configuration).toEqual({ website_id: 'w_3' });
  });

  it('bounds the hook like every invocation: time, response size, and a script type', async () => {
    const cases = [
      [
        'script-slow',
        'new Promise((r) => setTimeout(() => r(new Response("x")), 10000))',
        504,
        'integration_timeout',
      ],
      [
        'script-big',
        `new Response('x'.repeat(${200 * 1024}), { headers: { 'content-type': 'application/javascript' } })`,
        502,
        'integration_response_too_large',
      ],
      [
        'script-html',
        `new Response('<p>', { headers: { 'content-type': 'text/html' } })`,
        502,
        'invalid_published_script',
      ],
    ] as const;
    for (const [name, answer, status, code] of cases) {
      expect((await t.api('POST', '/v1/integrations', rawIntegration(name, answer))).status).toBe(201);
      await t.api('POST', '/v1/installations', { integration: name, site: `site_${name}` });
      const started = Date.now();
      const res = await fetch(`${t.host.contentUrl}/v1/sites/site_${name}/integrations/${name}/script.js`);
      expect([name, res.status, ((await res.json()) as ErrorBody).error.code]).toEqual([name, status, code]);
      // Generous: the 2 s time limit, on a loaded machine.
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  }, 60_000);
});
