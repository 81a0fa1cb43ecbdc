import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { bundleIntegration, eventually, startTestHost, type TestHost } from './helpers.js';

/**
 * `site_installation_setup` end to end (docs/contracts.md "Installation status"): a real bundle in
 * workerd is told when its site installation is created and after each configuration edit, with the
 * site, the status and the configuration; a space installation of the same integration is not.
 */

interface Installation {
  id: string;
  status: string;
}
interface Invocation {
  eventType: string;
  status: number | 'error';
  lines: Array<{ message: string }>;
}

const MANIFEST = [
  'name: site-setup',
  'title: Site setup',
  'description: test integration',
  'organization: test',
  'visibility: private',
  'target: all',
  'scopes: []',
  'configurations:',
  '  site:',
  '    properties:',
  '      flag: { type: string, title: Flag, description: A test setting. }',
  '    required: [flag]',
  '',
].join('\n');

describe.each(BACKENDS)('%s', (backend) => {
  let t: TestHost;

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_INVOCATION_TIMEOUT_MS: '5000' }, backend);
    const bundle = await bundleIntegration('packages/host/test/fixtures/site-setup', 'src/index.ts');
    const published = await t.api('POST', '/v1/integrations', { manifest: MANIFEST, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function invocations(id: string, type: string): Promise<Invocation[]> {
    const res = await t.api<{ invocations: Invocation[] }>('GET', `/v1/installations/${id}/logs`);
    expect(res.status).toBe(200);
    return res.body.invocations.filter((i) => i.eventType === type);
  }

  /** Waits for `count` invocations of `type`, then gives their log lines. */
  async function lines(id: string, type: string, count: number): Promise<string[]> {
    const seen = await eventually(
      async () => {
        const list = await invocations(id, type);
        return list.length >= count ? list : null;
      },
      30_000,
      `${count} ${type} invocation(s) of ${id}`,
    );
    expect(seen.map((i) => i.status)).toEqual(Array(count).fill(200));
    return seen.flatMap((i) => i.lines.map((l) => l.message));
  }

  /** Installs the fixture, unconfigured, into a site or a space. */
  async function install(place: { site: string } | { space: string }): Promise<Installation> {
    const res = await t.api<Installation>('POST', '/v1/installations', {
      integration: 'site-setup',
      ...place,
      configuration: {},
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  it('sends site_installation_setup when a site installation is created and when its configuration is edited', async () => {
    const created = await install({ site: 'site_docs' });
    expect(created.status).toBe('pending');
    const id = created.id;
    expect(await lines(id, 'site_installation_setup', 1)).toEqual([
      `site setup ${id} site=site_docs status=pending flag=undefined env=site_docs/undefined`,
    ]);

    const edited = await t.api<Installation>('PATCH', `/v1/installations/${id}`, {
      configuration: { flag: 'beta' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.status).toBe('active');
    expect(await lines(id, 'site_installation_setup', 2)).toEqual(
      expect.arrayContaining([`site setup ${id} site=site_docs status=active flag=beta env=site_docs/beta`]),
    );
    // Each moment also fires installation_setup (which the fixture leaves unhandled), once.
    expect(await lines(id, 'installation_setup', 2)).toEqual(
      Array(2).fill('No handler for event "installation_setup"; acknowledged'),
    );
    expect(await invocations(id, 'site_installation_setup')).toHaveLength(2);
  });

  it('sends no site_installation_setup to a space installation', async () => {
    const { id } = await install({ space: 'space_docs' });
    await lines(id, 'space_installation_setup', 1);
    await lines(id, 'installation_setup', 1);
    expect(await invocations(id, 'site_installation_setup')).toEqual([]);
  });
});
