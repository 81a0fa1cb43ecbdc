import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseManifest } from '@platform/manifest';
import { testEnvironment } from '@platform/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, MANIFEST, SOURCE } from '../test-fixtures.js';
import { offlineOutbound, sampleExcuse } from './render-sample.js';
import { runCheck } from './run-check.js';
import { blockTarget, sampleInstallation } from './sample-installation.js';
import { scriptCheckStep } from './script-step.js';

const check = (dir: string) => runCheck(dir, { steps: [scriptCheckStep] });

const manifestOf = (extra: string) => {
  const parsed = parseManifest(`${MANIFEST}${extra}`, { firstParty: false });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.manifest;
};

/** The fixture's counter block with this render body (it gets `(element, context)`). */
const withRender = (body: string) =>
  SOURCE.replace("render: async () => ContentKit.block(ContentKit.text('hi'))", `render: ${body}`);

describe('the installation check renders in (sampleInstallation, blockTarget)', () => {
  const base = testEnvironment();

  it('renders a block for a space installation, with the `account` defaults, unless the target excludes spaces', () => {
    const manifest = manifestOf(
      'configurations:\n  account:\n    properties:\n      color:\n        type: string\n        title: Color\n        description: Color.\n        default: red\n',
    );
    const { environment, unsetKeys } = sampleInstallation(manifest, blockTarget(manifest), base);
    expect(unsetKeys).toEqual([]);
    expect(environment.installation).toMatchObject({ target: 'space', status: 'active' });
    expect(environment.spaceInstallation).toMatchObject({
      space: 'space_check',
      status: 'active',
      configuration: { color: 'red' },
      urls: base.integration.urls,
    });
    expect(environment.installation?.configuration).toEqual({ color: 'red' });
    const orgManifest = { ...manifest, target: 'organization' as const };
    const organization = sampleInstallation(orgManifest, blockTarget(orgManifest), base);
    expect(organization.environment.installation?.target).toBe('organization');
    expect(organization.environment.spaceInstallation).toBeUndefined();
  });

  it('renders a site screen for a site installation with the `site` defaults', () => {
    const manifest = manifestOf(
      'configurations:\n  site:\n    properties:\n      id:\n        type: string\n        title: Id\n        description: Id.\n        default: abc\n',
    );
    const { environment } = sampleInstallation(manifest, 'site', base);
    expect(environment.installation?.target).toBe('site');
    expect(environment.siteInstallation).toMatchObject({ site: 'site_check', configuration: { id: 'abc' } });
    expect(environment.spaceInstallation).toBeUndefined();
  });

  it('is `pending`, naming the keys, when a required setting has no default', () => {
    const manifest = manifestOf(
      'configurations:\n  account:\n    properties:\n      oauth:\n        type: button\n        title: Connect\n        description: Connect.\n        button_text: Connect\n        callback_url: /oauth\n    required:\n      - oauth\n',
    );
    const { environment, unsetKeys } = sampleInstallation(manifest, blockTarget(manifest), base);
    expect(unsetKeys).toEqual(['oauth']);
    expect(environment.installation?.status).toBe('pending');
    expect(environment.spaceInstallation?.status).toBe('pending');
  });
});

describe('offlineOutbound and sampleExcuse', () => {
  it('records each request once and answers 503', () => {
    const outbound = offlineOutbound();
    expect(outbound.answer('https://a.example/x')).toMatchObject({ status: 503 });
    outbound.answer('https://b.example/y');
    expect(outbound.take()).toEqual(['https://a.example/x', 'https://b.example/y']);
    expect(outbound.take()).toEqual([]);
  });

  it('excuses a failure after a request or in a pending installation, and nothing else', () => {
    expect(sampleExcuse(['https://a.example/x', 'https://b.example'], [])).toMatch(
      /requested https:\/\/a\.example\/x \(and 1 more\), which `platform check` answers 503/,
    );
    expect(sampleExcuse([], ['oauth'])).toMatch(/`pending` \(required `oauth` has no default/);
    expect(sampleExcuse([], [])).toBeUndefined();
  });
});

describe('platform check renders blocks with a sample installation, offline', () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('{"ok":true}');
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oembed`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gives a block the space installation it renders for', async () => {
    const source = withRender(
      'async (element, context) => ContentKit.block(ContentKit.text(String(context.environment.spaceInstallation.configuration.color ?? "none") + context.environment.spaceInstallation.urls.publicEndpoint))',
    );
    expect(await check(fixture({ 'src/index.ts': source }))).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('never reaches the network, and warns (naming the request) when a render fails after one', async () => {
    const source = withRender(
      `async () => { const r = await fetch(${JSON.stringify('URL')}); if (!r.ok) throw new Error('upstream ' + r.status); return ContentKit.block(ContentKit.text('hi')); }`,
    );
    const report = await check(fixture({ 'src/index.ts': source.replace('URL', url) }));
    expect(hits).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        path: 'blocks[0].id',
        severity: 'warning',
        message: expect.stringMatching(
          new RegExp(`failed to render in workerd: .*upstream 503.*; it requested ${url}, which`, 's'),
        ),
      }),
    ]);
  });

  it('warns about a crash of a pending installation, and fails on the same crash of a complete one', async () => {
    const source = withRender(
      'async (element, context) => { context.environment.installation.configuration.sites.find(Boolean); return ContentKit.block(); }',
    );
    const required =
      'configurations:\n  account:\n    properties:\n      oauth:\n        type: button\n        title: Connect\n        description: Connect.\n        button_text: Connect\n        callback_url: /oauth\n    required:\n      - oauth\n';
    const pending = await check(fixture({ 'src/index.ts': source }, `${MANIFEST}${required}`));
    expect(pending.ok).toBe(true);
    expect(pending.warnings[0]?.message).toMatch(
      /block `counter` failed to render in workerd: .*its installation is `pending` \(required `oauth` has no default/s,
    );
    const complete = await check(fixture({ 'src/index.ts': source }));
    expect(complete.ok).toBe(false);
    expect(complete.errors[0]?.message).toMatch(
      /block `counter` failed to render in workerd: .*reading 'find'/s,
    );
    expect(complete.errors[0]?.message).not.toMatch(/pending|requested/);
  });

  it('keeps invalid ContentKit an error even when the render requested the network', async () => {
    const source = withRender(
      `async () => { await fetch(${JSON.stringify(url)}).catch(() => undefined); return { type: 'block', children: [{ type: 'button', label: 'Go', onPress: 'go' }] }; }`,
    );
    const report = await check(fixture({ 'src/index.ts': source }));
    expect(report.errors[0]?.message).toMatch(/rendered invalid ContentKit/);
  });
});
