import { describe, expect, it } from 'vitest';
import { checkScript, PASSED } from '../test-fixtures.js';

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
    const report = await checkScript({ 'src/index.tsx': SOURCE }, MANIFEST);
    expect(report).toEqual(PASSED);
  });

  it('gives each declared secret a sample, a URL when its name says so (a fresh installation has its secrets)', async () => {
    const withSecrets = `${MANIFEST}secrets:\n  APP_INSTALL_URL: $\{{ env.FRAMES_APP_URL }}\n  API_KEY: $\{{ env.FRAMES_KEY }}\n`;
    const source = SOURCE.replace(
      'const own = new URL(',
      "if (environment.secrets.API_KEY !== 'sample') throw new Error('no key');\n    new URL(environment.secrets.APP_INSTALL_URL + '/installations/new');\n    const own = new URL(",
    );
    const report = await checkScript({ 'src/index.tsx': source }, withSecrets);
    expect(report).toEqual(PASSED);
  });

  it("gives the manifest's externalLinks as environment.integration.externalLinks", async () => {
    const linked = `${MANIFEST}externalLinks:\n  - label: Docs\n    url: https://docs.example.com/frames\n`;
    const source = SOURCE.replace(
      'const own = new URL(',
      "if (environment.integration.externalLinks[0]?.url !== 'https://docs.example.com/frames') throw new Error('no links');\n    const own = new URL(",
    );
    const report = await checkScript({ 'src/index.tsx': source }, linked);
    expect(report).toEqual(PASSED);
    // without the key, a list all the same (the runtime fills it)
    const unlinked = source.replace("[0]?.url !== 'https://docs.example.com/frames'", '.length !== 0');
    expect((await checkScript({ 'src/index.tsx': unlinked }, MANIFEST)).ok).toBe(true);
  });

  it('still reports a render that reads a field no environment has', async () => {
    const broken = SOURCE.replace('urls.publicContentEndpoint)', 'urls.publicContentEndpointTypo)');
    const report = await checkScript({ 'src/index.tsx': broken }, MANIFEST);
    expect(report.errors[0]?.message).toMatch(/block `frame` failed to render in workerd: .*Invalid URL/);
  });
});
