import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { bundleIntegration, eventually, startTestHost, type TestHost } from './helpers.js';

/**
 * An integration calls its own host's API (`environment.apiEndpoint`, a loopback address here) from
 * workerd, with the default address policy (every private target refused): the host serves the call
 * itself (docs/host-api-from-integrations.md). Anything else on loopback stays refused.
 */

const MANIFEST = [
  'name: self-caller',
  'title: Self caller',
  'organization: test',
  'scopes: [space:content:read, site:metadata:read]',
  'configurations:',
  '  account:',
  '    properties:',
  '      note: { type: string, title: Note, description: A test setting. }',
  '  site:',
  '    properties:',
  '      note: { type: string, title: Note, description: A test setting. }',
  '      extra: { type: string, title: Extra, description: Removed by a replacing save. }',
  '',
].join('\n');

interface Answer {
  ok: boolean;
  error?: string;
  code?: string;
  revision?: string;
  nodes?: unknown[];
  site?: unknown;
  space?: unknown;
  id?: string;
  endpoint?: string;
  status?: number;
  body?: string;
  configuration?: Record<string, unknown>;
}

describe.each(BACKENDS)('integration code calling the host API (%s)', (backend) => {
  let t: TestHost;
  let trap: Server;
  let trapHits = 0;
  let installation = { id: '', urls: { publicEndpoint: '' } };
  let other = '';

  beforeAll(async () => {
    trap = createServer((_req, res) => {
      trapHits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    t = await startTestHost({ PLATFORM_INVOCATION_TIMEOUT_MS: '5000' }, backend);
    expect(t.host.context.config.allowPrivateTargets).toBeUndefined(); // the default policy
    const bundle = await bundleIntegration('packages/host/test/fixtures/self-api', 'src/index.ts');
    const published = await t.api('POST', '/v1/integrations', { manifest: MANIFEST, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<typeof installation>('POST', '/v1/installations', {
      integration: 'self-caller',
      space: 'space-self',
      configuration: {},
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    installation = installed.body;
    const webhook = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-other',
      configuration: { url: 'https://hooks.example.com/in', space_content_updated: true },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    other = webhook.body.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    trap?.close();
  });

  async function call(params: Record<string, string>, endpoint = installation.urls.publicEndpoint) {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${endpoint}?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  }

  it('reads its own installation through context.api at a loopback apiEndpoint', async () => {
    const answer = await call({ call: 'own' });
    expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true, id: installation.id });
    expect(new URL(answer.endpoint ?? '').hostname).toBe('127.0.0.1');
  }, 30_000);

  it('saves configuration through context.api, and the host keeps it', async () => {
    const answer = await call({ call: 'patch', note: `saved-${backend}` });
    expect(answer, JSON.stringify(answer)).toMatchObject({
      ok: true,
      configuration: { note: `saved-${backend}` },
    });
    const stored = await t.api<{ configuration: Record<string, unknown> }>(
      'GET',
      `/v1/installations/${installation.id}`,
    );
    expect(stored.body.configuration.note).toBe(`saved-${backend}`);
  }, 30_000);

  it('refuses a host API call without the installation token, and a path outside /v1/', async () => {
    const bare = await call({ call: 'bare', url: `${t.host.url}/v1/installations/${installation.id}` });
    expect(bare.ok).toBe(false);
    expect(bare.error).toContain('installation token');
    const page = await call({ call: 'raw', url: `${t.host.url}/metrics` });
    expect(page.ok).toBe(false);
    expect(page.error).toContain('only the host API');
  }, 30_000);

  it("refuses the token of another integration's installation", async () => {
    const foreign = t.host.context.tokens.issue(other);
    const answer = await call({
      call: 'raw',
      url: `${t.host.url}/v1/installations/${other}`,
      token: foreign,
    });
    expect(answer.ok, JSON.stringify(answer)).toBe(false);
    expect(answer.error).toContain("not one of self-caller's installations");
    expect(answer.error).not.toContain(foreign);
  }, 30_000);

  it('still refuses another loopback port, token or not: nothing reaches it', async () => {
    const port = (trap.address() as AddressInfo).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${new URL(t.host.url).port}`]) {
      const answer = await call({ call: 'raw', url: `http://${host}/v1/installations/${installation.id}` });
      expect(answer.ok, `${host}: ${JSON.stringify(answer)}`).toBe(false);
      expect(answer.error).toContain('address policy refuses');
    }
    expect(trapHits).toBe(0);
  }, 30_000);

  it('api.spaces: the space it is installed in, and its document as the current revision', async () => {
    expect((await t.api('PUT', '/v1/spaces/space-self/owner', { organization: 'acme-self' })).status).toBe(
      200,
    );
    const saved = await t.api('PUT', '/v1/spaces/space-self/document', {
      nodes: [{ type: 'text', text: 'Hello from the host' }],
      baseRevision: 0,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const space = await call({ call: 'space', space: 'space-self' });
    expect(space, JSON.stringify(space)).toMatchObject({
      ok: true,
      space: { object: 'space', id: 'space-self', organization: 'acme-self', currentRevision: '1' },
    });
    const revision = await call({ call: 'revision', space: 'space-self' });
    expect(revision, JSON.stringify(revision)).toMatchObject({
      ok: true,
      revision: '1',
      nodes: [{ type: 'text', text: 'Hello from the host' }],
    });
    // a space it is not installed in: refused by the host (403), a typed error, not a crash
    const foreign = await call({ call: 'space', space: 'space-other' });
    expect(foreign, JSON.stringify(foreign)).toMatchObject({ ok: false, status: 403 });
  }, 30_000);

  it('calls the host does not serve answer 501 not_served naming the call', async () => {
    const git = await call({ call: 'unserved' });
    expect(git, JSON.stringify(git)).toMatchObject({ ok: false, status: 501, code: 'not_served' });
    expect(git.error).toContain('api.spaces.importGitRepository');
    const urls = await call({ call: 'unknown' });
    expect(urls, JSON.stringify(urls)).toMatchObject({ ok: false, status: 501, code: 'not_served' });
    expect(urls.error).toContain('api.urls.getContentByUrl');
  }, 30_000);

  it('a site installation saves its configuration with updateIntegrationSiteInstallation and reads its site', async () => {
    const installed = await t.api<typeof installation>('POST', '/v1/installations', {
      integration: 'self-caller',
      site: 'site-self',
      configuration: { note: 'first', extra: 'x' },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const endpoint = installed.body.urls.publicEndpoint;
    const saved = await call({ call: 'site-save', note: `site-${backend}` }, endpoint);
    expect(saved, JSON.stringify(saved)).toMatchObject({
      ok: true,
      site: 'site-self',
      configuration: { note: `site-${backend}` },
    });
    const stored = await t.api<{ configuration: Record<string, unknown> }>(
      'GET',
      `/v1/installations/${installed.body.id}`,
    );
    expect(stored.body.configuration).toEqual({ note: `site-${backend}` }); // replaced, not merged
    const site = await call({ call: 'site', organization: 'any' }, endpoint);
    expect(site, JSON.stringify(site)).toMatchObject({ ok: true, site: { object: 'site', id: 'site-self' } });
    // where the host serves the site to its visitors (content origin), what sign-in redirects build on
    expect((site as { site: { urls: { published: string } } }).site.urls.published).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/sites\/site-self$/,
    );
    // an integration without site:metadata:read (the webhook integration) cannot read its site
    const webhook = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      site: 'site-hook',
      configuration: { url: 'https://hooks.example.com/in' },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const refused = await t.api<{ error: { code: string; message: string } }>(
      'GET',
      '/v1/sites/site-hook',
      undefined,
      t.host.context.tokens.issue(webhook.body.id),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('missing_scope');
    expect(refused.body.error.message).toContain('site:metadata:read');
  }, 30_000);

  it('space_content_updated: the handler reads the space with api.spaces.getSpaceById', async () => {
    const sent = await t.api('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space-self',
      revisionId: 'r1',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const line = await eventually(
      async () => {
        const logs = await t.api<{
          invocations: Array<{ eventType: string; status: number; lines: Array<{ message: string }> }>;
        }>('GET', `/v1/installations/${installation.id}/logs`);
        const run = logs.body.invocations.find((i) => i.eventType === 'space_content_updated');
        return run ? { status: run.status, text: run.lines.map((l) => l.message).join('\n') } : null;
      },
      30_000,
      'the space_content_updated invocation',
    );
    expect(line.status).toBe(200);
    expect(line.text).toContain('space space-self revision=1 organization=acme-self');
  }, 40_000);
});
