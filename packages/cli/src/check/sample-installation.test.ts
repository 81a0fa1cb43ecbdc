import { describe, expect, it } from 'vitest';
import { fixture } from '../test-fixtures.js';
import { runCheck } from './run-check.js';
import { scriptCheckStep } from './script-step.js';

/**
 * `platform check` runs the script as installations configured with the sample of their settings,
 * shaped like the host's (docs/published-scripts.md "`platform check`").
 */

const setting = (key: string) => `      ${key}: { type: string, title: ${key}, description: Set it. }\n`;
const place = (name: string, keys: string[], componentId?: string) =>
  `  ${name}:\n${componentId ? `    componentId: ${componentId}\n` : ''}    properties:\n${keys.map(setting).join('')}    required: [${keys.join(', ')}]\n`;
const manifest = (places: string, extra = '') => `name: sampled
title: Sampled
description: Runs with a sample configuration.
organization: acme
visibility: private
script: src/index.ts
scopes: [site:script:inject]
${extra}configurations:
${places}`;

/** Fails (throws) unless `condition`, a JS expression over `environment` (and `event`/`element`), holds. */
const expectIn = (condition: string, what: string) =>
  `if (!(${condition})) throw new Error(${JSON.stringify(`${what}: `)} + JSON.stringify(environment));`;

const check = (places: string, code: string, extra = '') =>
  runCheck(fixture({ 'src/index.ts': code }, manifest(places, extra)), {
    firstParty: true,
    steps: [scriptCheckStep],
  });

const SCRIPT_OK = `new Response('ok()', { headers: { 'content-type': 'application/javascript' } })`;

describe('platform check: the sample installation', () => {
  it('calls fetch_published_script with a sample for each required setting without a default', async () => {
    const code = `import { createIntegration } from '@platform/runtime';
export default createIntegration({
  fetch_published_script: async (event, { environment }) => {
    ${expectIn("environment.siteInstallation.configuration.tracking_id === 'sample' && environment.siteInstallation.site === event.siteId", 'no sample')}
    ${expectIn("environment.siteInstallation.configuration.api_url === 'https://example.com/sample'", 'no URL sample')}
    ${expectIn('environment.spaceInstallation === undefined', 'a space installation')}
    return ${SCRIPT_OK};
  },
});
`;
    const report = await check(place('site', ['tracking_id', 'api_url']), code);
    expect(report).toEqual({ ok: true, errors: [], warnings: [] });
    // Proof the condition is checked: a key the sample does not set fails the same way (a warning:
    // the hook ran with made-up settings, so the failure is configuration-dependent).
    const broken = await check(place('site', ['other']), code);
    expect(broken.warnings[0]?.message).toMatch(
      /failed in workerd: HTTP 500 .*no sample[\s\S]*configuration-dependent/,
    );
  });

  it('runs a script whose manifest declares only `space` settings as a site installation with them, shown as `spaceInstallation` too', async () => {
    const code = `import { createIntegration } from '@platform/runtime';
export default createIntegration({
  fetch_published_script: async (event, { environment }) => {
    const id = environment.spaceInstallation.configuration.website_id;
    ${expectIn("id === 'sample' && environment.siteInstallation.configuration.website_id === id", 'no website')}
    return ${SCRIPT_OK};
  },
});
`;
    expect(await check(place('space', ['website_id']), code)).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('sets up the installation of the manifest target with its sample, and renders blocks and shown screens in it', async () => {
    const code = `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';
const screen = (componentId, key) => createComponent({
  componentId,
  render: async (element, { environment }) => {
    const props = element.props;
    ${expectIn('props.installation && props.installation.configuration === environment.installation.configuration', 'no installation props')}
    ${expectIn("(key === 'project' ? props.installation : props.siteInstallation).configuration[key] === 'sample'", 'no sample')}
    return ContentKit.block(ContentKit.text(componentId));
  },
});
const block = createComponent({
  componentId: 'embed',
  render: async (element, { environment }) => {
    ${expectIn("environment.installation.target === 'site' && environment.siteInstallation.configuration.token === 'sample'", 'block outside the site')}
    return ContentKit.block(ContentKit.text('embed'));
  },
});
const never = createComponent({ componentId: 'space-screen', render: async () => { throw new Error('the space screen was rendered'); } });
export default createIntegration({
  components: [screen('account-screen', 'project'), screen('site-screen', 'token'), block, never],
  events: {
    installation_setup: async (event, { environment }) => {
      ${expectIn("event.target === 'site' && event.configuration.token === 'sample' && environment.siteInstallation.site === 'site_check'", 'setup without the sample')}
    },
  },
  fetch_published_script: async () => ${SCRIPT_OK},
});
`;
    const places =
      place('account', ['project'], 'account-screen') +
      place('site', ['token'], 'site-screen') +
      place('space', ['token'], 'space-screen');
    const extra = 'target: site\nblocks:\n  - id: embed\n    title: Embed\n    description: Shows.\n';
    const report = await check(places, code, extra);
    expect(report.errors).toEqual([]);
    // The `space` screen beside `site` settings: never shown by the host, so not rendered.
    expect(report.warnings.map((w) => w.path)).toEqual(['configurations.space']);
  });
});

describe('platform check: the integration icon', () => {
  it('renders with `environment.integration.urls.icon` set when the manifest names an icon', async () => {
    const code = `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';
const embed = createComponent({
  componentId: 'embed',
  render: async (element, { environment }) => ({
    type: 'block',
    children: [{ type: 'card', title: 'T', icon: { type: 'image', source: { url: environment.integration.urls.icon }, aspectRatio: 1 }, children: [] }],
  }),
});
export default createIntegration({ components: [embed] });
`;
    const blocks = 'blocks:\n  - id: embed\n    title: Embed\n    description: Shows.\n';
    const run = (icon: string) =>
      runCheck(
        fixture(
          {
            'src/index.ts': code,
            'assets/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>',
          },
          manifest(place('account', ['key']), `${icon}${blocks}`).replace(
            'scopes: [site:script:inject]',
            'scopes: []',
          ),
        ),
        { steps: [scriptCheckStep] },
      );
    expect((await run('icon: assets/icon.svg\n')).errors).toEqual([]);
    // Without an icon there is no URL: the image is reported, saying what a card icon may be.
    expect((await run('')).errors[0]?.message).toMatch(
      /block `embed` rendered invalid ContentKit: element\.children\[0\]\.icon: expected an icon name/,
    );
  });
});
