import { describe, expect, it } from 'vitest';
import { fixture } from '../test-fixtures.js';
import { runCheck } from './run-check.js';
import { scriptCheckStep } from './script-step.js';

/**
 * The environment fields integrations written for the content origin read (issue 31, cause 1):
 * `publicContentEndpoint` on the integration's and the installation's `urls`, and the
 * `integration`/`installation` a space installation names. The block below throws unless each is
 * there, so a check that passes proves `platform check` gives them.
 */
const MANIFEST = `name: frames
title: Frames
description: Shows a frame served by its own fetch.
organization: acme
visibility: private
script: src/index.tsx
target: space
scopes:
  - space:content:read
blocks:
  - id: frame
    title: Frame
    description: A framed page.
`;

const SOURCE = `import { createComponent, createIntegration } from '@platform/runtime';
const frame = createComponent({
  componentId: 'frame',
  async render(element, { environment }) {
    const own = new URL(environment.integration.urls.publicContentEndpoint);
    const space = environment.spaceInstallation;
    if (!space) throw new Error('no space installation');
    const installed = new URL(space.urls.publicContentEndpoint);
    if (space.integration !== environment.integration.name) throw new Error('integration: ' + space.integration);
    if (space.installation !== environment.installation.id) throw new Error('installation: ' + space.installation);
    own.searchParams.set('v', environment.integration.version);
    return <block><webframe source={{ url: own.toString() + '&at=' + installed.pathname }} aspectRatio={2} /></block>;
  },
});
export default createIntegration({
  components: [frame],
  fetch: async () => new Response('<p>frame</p>', { headers: { 'content-type': 'text/html' } }),
});
`;

describe('platform check: the environment an integration reads', () => {
  it('gives publicContentEndpoint and the installation a space installation belongs to', async () => {
    const report = await runCheck(fixture({ 'src/index.tsx': SOURCE }, MANIFEST), {
      steps: [scriptCheckStep],
    });
    expect(report).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('gives each declared secret a sample, a URL when its name says so (a fresh installation has its secrets)', async () => {
    const withSecrets = `${MANIFEST}secrets:\n  APP_INSTALL_URL: $\{{ env.FRAMES_APP_URL }}\n  API_KEY: $\{{ env.FRAMES_KEY }}\n`;
    const source = SOURCE.replace(
      'const own = new URL(',
      "if (environment.secrets.API_KEY !== 'sample') throw new Error('no key');\n    new URL(environment.secrets.APP_INSTALL_URL + '/installations/new');\n    const own = new URL(",
    );
    const report = await runCheck(fixture({ 'src/index.tsx': source }, withSecrets), {
      steps: [scriptCheckStep],
    });
    expect(report).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it("gives the manifest's externalLinks as environment.integration.externalLinks", async () => {
    const linked = `${MANIFEST}externalLinks:\n  - label: Docs\n    url: https://docs.example.com/frames\n`;
    const source = SOURCE.replace(
      'const own = new URL(',
      "if (environment.integration.externalLinks[0]?.url !== 'https://docs.example.com/frames') throw new Error('no links');\n    const own = new URL(",
    );
    const report = await runCheck(fixture({ 'src/index.tsx': source }, linked), { steps: [scriptCheckStep] });
    expect(report).toEqual({ ok: true, errors: [], warnings: [] });
    // without the key, a list all the same (the runtime fills it)
    const unlinked = source.replace("[0]?.url !== 'https://docs.example.com/frames'", '.length !== 0');
    expect(
      (await runCheck(fixture({ 'src/index.tsx': unlinked }, MANIFEST), { steps: [scriptCheckStep] })).ok,
    ).toBe(true);
  });

  it('still reports a render that reads a field no environment has', async () => {
    const broken = SOURCE.replace('urls.publicContentEndpoint)', 'urls.publicContentEndpointTypo)');
    const report = await runCheck(fixture({ 'src/index.tsx': broken }, MANIFEST), {
      steps: [scriptCheckStep],
    });
    expect(report.errors[0]?.message).toMatch(/block `frame` failed to render in workerd: .*Invalid URL/);
  });
});
