import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import {
  bundleIntegration,
  createInstallation,
  eventually,
  type Receiver,
  readRepoFile,
  startReceiver,
  startTestHost,
  type TestHost,
} from './helpers.js';

interface Installation {
  id: string;
  status: string;
  urls: { publicEndpoint: string };
  configurationErrors: Array<{ key: string }>;
}
interface Invocation {
  eventType: string;
  status: number | 'error';
  lines: Array<{ level: string; message: string }>;
}

const WEBHOOK_SECRET = 'hello-third-party-secret';
const helloEnv = {
  HELLO_CLIENT_ID: 'client-1',
  HELLO_CLIENT_SECRET: 'client-secret-1',
  HELLO_OAUTH_AUTHORIZE_URL: 'https://auth.example.com/authorize',
  HELLO_OAUTH_TOKEN_URL: 'https://auth.example.com/token',
  HELLO_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

/** A one-file integration for the tests below. */
function tinyManifest(name: string, scopes: string[]): string {
  return `name: ${name}\ntitle: ${name}\ndescription: test integration\norganization: test\nvisibility: private\nscopes:\n${scopes.map((s) => `  - ${s}`).join('\n')}\n`;
}

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_INVOCATION_TIMEOUT_MS: '2000' }, backend);
    receiver = await startReceiver();
    const bundle = await bundleIntegration('examples/hello', 'src/index.tsx');
    const published = await t.api('POST', '/v1/integrations', {
      manifest: await readRepoFile('examples/hello/platform-manifest.yaml'),
      bundle,
      env: helloEnv,
    });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const install = (
    space: string,
    configuration: Record<string, unknown> = { channel: 'general' },
    integration = 'hello',
  ) => createInstallation<Installation>(t, integration, space, configuration);

  async function logs(id: string): Promise<Invocation[]> {
    const res = await t.api<{ invocations: Invocation[] }>('GET', `/v1/installations/${id}/logs`);
    expect(res.status).toBe(200);
    return res.body.invocations;
  }

  const messages = (list: Invocation[]) => list.flatMap((i) => i.lines.map((l) => l.message));

  describe('publishing', () => {
    it('rejects an invalid manifest with every error located, and missing secret variables by name', async () => {
      const bad = await t.api<{
        error: { code: string; details: { errors: Array<{ path: string; line: number }> } };
      }>('POST', '/v1/integrations', {
        manifest: 'name: Bad Name\ntitle: x\nvisibility: secret\n',
        bundle: 'export default {}',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_manifest');
      const paths = bad.body.error.details.errors.map((e) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['name', 'visibility']));
      expect(bad.body.error.details.errors.find((e) => e.path === 'visibility')!.line).toBe(3);

      const noEnv = await t.api<{ error: { message: string } }>('POST', '/v1/integrations', {
        manifest: await readRepoFile('examples/hello/platform-manifest.yaml'),
        bundle: 'export default {}',
      });
      expect(noEnv.status).toBe(400);
      expect(noEnv.body.error.message).toContain('HELLO_CLIENT_ID');
      const list = await t.api<{ integrations: Array<{ name: string; version: string }> }>(
        'GET',
        '/v1/integrations',
      );
      expect(list.body.integrations.filter((i) => i.name === 'hello').map((i) => i.version)).toEqual(['1']);
    });

    it('requires an organization (optional in the file, not on publish) and defaults visibility to private', async () => {
      const manifest = 'name: orgless\ntitle: Orgless\nscopes: []\n';
      const refused = await t.api<{ error: { code: string; message: string } }>('POST', '/v1/integrations', {
        manifest,
        bundle: 'export default {}',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_manifest');
      expect(refused.body.error.message).toMatch(
        /no `organization`.*set `organization` in the manifest, or publish with `platform publish --organization <id>`/,
      );
      expect(await t.api('GET', '/v1/integrations/orgless')).toMatchObject({ status: 404 });

      const published = await t.api<{
        visibility: string;
        description: string;
        manifest: { organization: string };
      }>('POST', '/v1/integrations', {
        manifest: `${manifest}organization: acme\n`,
        bundle: 'export default {}',
      });
      expect(published.status, JSON.stringify(published.body)).toBe(201);
      expect(published.body).toMatchObject({
        visibility: 'private',
        description: '',
        manifest: { organization: 'acme' },
      });
    });

    it('refuses internal scopes for third-party manifests', async () => {
      const res = await t.api('POST', '/v1/integrations', {
        manifest: tinyManifest('sneaky', ['site:script:inject']),
        bundle: 'export default {}',
      });
      expect(res.status).toBe(400);
    });
  });

  describe('installations and their status', () => {
    it('moves pending -> active as the configuration is completed, firing installation_setup each time', async () => {
      const inst = await install('space-status', {});
      expect(inst.status).toBe('pending');
      expect(inst.configurationErrors.map((e) => e.key)).toEqual(['channel']);
      const patched = await t.api<Installation>('PATCH', `/v1/installations/${inst.id}`, {
        configuration: { channel: 'general' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.status).toBe('active');
      const seen = await eventually(
        async () => {
          const list = (await logs(inst.id)).filter((l) => l.eventType === 'installation_setup');
          return list.length >= 2 ? list : null;
        },
        15_000,
        'two installation_setup invocations',
      );
      expect(messages(seen)).toEqual(
        expect.arrayContaining([
          `hello: installation ${inst.id} is pending`,
          `hello: installation ${inst.id} is active`,
        ]),
      );
      const paused = await t.api<Installation>('POST', `/v1/installations/${inst.id}/pause`);
      expect(paused.body.status).toBe('paused');
      const resumed = await t.api<Installation>('POST', `/v1/installations/${inst.id}/resume`);
      expect(resumed.body.status).toBe('active');
      const typo = await t.api('PATCH', `/v1/installations/${inst.id}`, { configuration: { chanel: 'x' } });
      expect(typo.status).toBe(400);
    });

    it('scopes installation tokens to their own installation', async () => {
      const a = await install('space-token-a');
      const b = await install('space-token-b');
      const tokenA = t.host.context.tokens.issue(a.id);
      expect((await t.api('GET', `/v1/installations/${a.id}`, undefined, tokenA)).status).toBe(200);
      expect((await t.api('GET', `/v1/installations/${b.id}`, undefined, tokenA)).status).toBe(403);
      expect(
        (
          await t.api(
            'PATCH',
            `/v1/installations/${a.id}`,
            { configuration: { oauth_credentials: { access_token: 'x' } } },
            tokenA,
          )
        ).status,
      ).toBe(200);
      expect((await t.api('GET', '/v1/integrations', undefined, tokenA)).status).toBe(403);
      expect((await t.api('GET', `/v1/installations/${a.id}`, undefined, `${tokenA}x`)).status).toBe(401);
    });
  });

  describe('event fan-out', () => {
    it('reaches active installations in the event space with the scope, and no others', async () => {
      const target = await install('space-fan');
      const otherSpace = await install('space-other');
      const pending = await install('space-fan', {});
      const paused = await install('space-fan');
      await t.api('POST', `/v1/installations/${paused.id}/pause`);
      const noScope = await t.api('POST', '/v1/integrations', {
        manifest: tinyManifest('metadata-only', ['space:metadata:read']),
        bundle: 'export default { fetch: () => new Response("{}") }',
      });
      expect(noScope.status).toBe(201);
      const unscoped = await install('space-fan', {}, 'metadata-only');

      const res = await t.api<{ eventId: string }>('POST', '/v1/events', {
        type: 'space_content_updated',
        spaceId: 'space-fan',
        revisionId: 'rev-42',
      });
      expect(res.status).toBe(202);
      await eventually(
        async () => messages(await logs(target.id)).includes('hello: space space-fan now at revision rev-42'),
        15_000,
        'delivery to the target',
      );
      const greeting = messages(await logs(target.id)).find((m) => m.startsWith('hello: greeting is'));
      expect(greeting).toBe('hello: greeting is Hello');
      await new Promise((r) => setTimeout(r, 500));
      for (const other of [otherSpace, pending, paused, unscoped as unknown as { body: Installation }]) {
        const id = 'id' in other ? other.id : other.body.id;
        expect((await logs(id)).some((l) => l.eventType === 'space_content_updated')).toBe(false);
      }
    });
  });

  describe('public endpoint and components (workerd)', () => {
    it('round-trips the raw body so the integration can check a third-party signature', async () => {
      const inst = await install('space-public');
      const body = '{"hello":"world", "spacing":  "kept"}';
      const good = createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
      const ok = await fetch(`${inst.urls.publicEndpoint}/webhook`, {
        method: 'POST',
        body,
        headers: { 'x-hello-signature': `sha256=${good}` },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('application/json');
      expect(ok.headers.get('x-platform-logs')).toBeNull();
      expect(await ok.json()).toEqual({ received: true });
      const bad = await fetch(`${inst.urls.publicEndpoint}/webhook`, {
        method: 'POST',
        body: `${body} `,
        headers: { 'x-hello-signature': `sha256=${good}` },
      });
      expect(bad.status).toBe(401);
      const get = await fetch(`${inst.urls.publicEndpoint}/webhook`);
      expect(get.status).toBe(405);
      const teapot = await fetch(`${inst.urls.publicEndpoint}/fail`, { method: 'POST' });
      expect(teapot.status).toBe(418);
      // OAuth: the integration's redirect to the provider reaches the browser untouched.
      const oauth = await fetch(`${inst.urls.publicEndpoint}/oauth`, { redirect: 'manual' });
      expect(oauth.status).toBe(302);
      const location = new URL(oauth.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(helloEnv.HELLO_OAUTH_AUTHORIZE_URL);
      expect(location.searchParams.get('client_id')).toBe(helloEnv.HELLO_CLIENT_ID);
      expect(location.searchParams.get('redirect_uri')).toBe(`${inst.urls.publicEndpoint}/oauth`);
      const channels = await fetch(`${inst.urls.publicEndpoint}/channels`);
      expect(channels.status).toBe(200);
      expect(JSON.stringify(await channels.json())).toContain('general');
    });

    it('renders a component and dispatches its actions (component state machine)', async () => {
      const inst = await install('space-component');
      const first = await t.api<{ element: unknown; state: { count: number } }>(
        'POST',
        `/v1/installations/${inst.id}/render`,
        { componentId: 'counter', props: {} },
      );
      expect(first.status).toBe(200);
      expect(first.body.state).toEqual({ count: 0 });
      expect(JSON.stringify(first.body.element)).toContain('Count: 0');
      const pressed = await t.api<{ element: unknown; state: { count: number } }>(
        'POST',
        `/v1/installations/${inst.id}/render`,
        {
          componentId: 'counter',
          props: { step: 2 },
          state: first.body.state,
          action: { action: 'increment' },
        },
      );
      expect(pressed.body.state).toEqual({ count: 2 });
      expect(JSON.stringify(pressed.body.element)).toContain('Count: 2');
      const unknownAction = await t.api<{ state: { count: number } }>(
        'POST',
        `/v1/installations/${inst.id}/render`,
        {
          componentId: 'counter',
          props: {},
          state: { count: 5 },
          action: { action: 'nope' },
        },
      );
      expect(unknownAction.body.state).toEqual({ count: 5 });
      const missing = await t.api('POST', `/v1/installations/${inst.id}/render`, { componentId: 'nope' });
      expect(missing.status).toBe(404);
    });

    it('a busy-looping integration does not block another beyond the timeout', async () => {
      const spin = await t.api('POST', '/v1/integrations', {
        manifest: tinyManifest('spinner', ['space:content:read']),
        bundle: 'export default { async fetch() { for (;;) {} } }',
      });
      expect(spin.status).toBe(201);
      const spinner = await install('space-spin', {}, 'spinner');
      const healthy = await install('space-healthy');
      const started = Date.now();
      const stuck = fetch(`${spinner.urls.publicEndpoint}/x`, { method: 'POST' });
      await new Promise((r) => setTimeout(r, 200));
      const other = await fetch(`${healthy.urls.publicEndpoint}/channels`);
      const elapsed = Date.now() - started;
      expect((await stuck).status).toBe(504);
      expect(other.status).toBe(200);
      // 2 s invocation timeout + hang detection + workerd restart; generous for a busy 2-core machine.
      expect(elapsed).toBeLessThan(12_000);
      const after = await fetch(`${healthy.urls.publicEndpoint}/channels`);
      expect(after.status).toBe(200);
    }, 30_000);

    it('integration code cannot reach loopback or private addresses through its own fetch', async () => {
      const probe = await t.api('POST', '/v1/integrations', {
        manifest: tinyManifest('prober', ['space:content:read']),
        bundle: `export default { async fetch(request) {
          const form = await request.formData();
          const target = new URL(JSON.parse(form.get('event')).request.url).searchParams.get('target');
          try { const r = await fetch(target); return Response.json({ reached: true, status: r.status }); }
          catch (e) { return Response.json({ reached: false, error: String(e && e.message || e) }); }
        } }`,
      });
      expect(probe.status).toBe(201);
      const inst = await install('space-probe', {}, 'prober');
      for (const target of [
        receiver.url,
        'http://10.0.0.1/',
        'http://[::1]/',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const res = await fetch(`${inst.urls.publicEndpoint}?target=${encodeURIComponent(target)}`);
        const body = (await res.json()) as { reached: boolean; status?: number; error?: string };
        expect(
          body.reached === false || (body.status !== undefined && body.status >= 400),
          `${target}: ${JSON.stringify(body)}`,
        ).toBe(true);
      }
      expect(receiver.received).toHaveLength(0);
    }, 30_000);
  });
});
