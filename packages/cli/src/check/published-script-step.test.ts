import { describe, expect, it } from 'vitest';
import { fixture } from '../test-fixtures.js';
import { runCheck } from './run-check.js';
import { scriptCheckStep } from './script-step.js';

/** `platform check` of an integration with `fetch_published_script` (docs/published-scripts.md). */

const manifest = (scopes: string) => `name: tracker
title: Tracker
description: A script on published pages.
organization: acme
visibility: private
target: site
script: src/index.ts
scopes: ${scopes}
configurations:
  site:
    properties:
      domain:
        type: string
        title: Domain
        description: Counted under this domain.
        default: docs.example
`;

/** A hook answering `answer` (a JS expression of a Response or undefined) given `event` and `environment`. */
const source = (answer: string, where: 'hook' | 'events' = 'hook') =>
  `import { createIntegration } from '@platform/runtime';
const hook = async (event, { environment }) => ${answer};
export default createIntegration(${where === 'hook' ? '{ fetch_published_script: hook }' : '{ events: { fetch_published_script: hook } }'});
`;

const JS = `new Response('track(' + JSON.stringify([event.siteId, environment.siteInstallation.configuration.domain]) + ')', { headers: { 'content-type': 'application/javascript' } })`;

const check = (scopes: string, code: string, firstParty = true) =>
  runCheck(fixture({ 'src/index.ts': code }, manifest(scopes)), { firstParty, steps: [scriptCheckStep] });

describe('platform check: fetch_published_script', () => {
  it('passes a hook answering JavaScript, called once with a site and the configuration defaults', async () => {
    // The hook only answers JavaScript when it got the sample site and the default domain.
    const strict = `event.siteId === 'site_check' && environment.siteInstallation.configuration.domain === 'docs.example' ? ${JS} : new Response('<p>', { headers: { 'content-type': 'text/html' } })`;
    expect(await check('[site:script:inject]', source(strict))).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
    expect((await check('[site:script:inject]', source('undefined'))).ok).toBe(true);
  });

  it('asks for the scope, saying it is internal, when the manifest lacks it', async () => {
    const report = await check('[]', source(JS), false);
    expect(report.errors).toEqual([
      expect.objectContaining({
        path: 'scopes',
        line: 8,
        message:
          'the script handles `fetch_published_script`, which needs the scope `site:script:inject`; add `site:script:inject` to `scopes`, or the host never sends it. `site:script:inject` is internal: only first-party integrations get it (`platform check --first-party`; the operator publishes with `firstParty`).',
      }),
    ]);
  });

  it('reports an answer that is not a script, a hook that throws, and a hook put in `events`', async () => {
    const html = await check(
      '[site:script:inject]',
      source(`new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } })`),
    );
    expect(html.errors).toEqual([
      expect.objectContaining({
        path: 'script',
        message: expect.stringMatching(
          /^`fetch_published_script` answered `text\/html`; answer the script with `content-type: application\/javascript`/,
        ),
      }),
    ]);
    const thrown = await check('[site:script:inject]', source(`(() => { throw new Error('no domain'); })()`));
    expect(thrown.errors[0]?.message).toMatch(
      /^`fetch_published_script` failed in workerd: HTTP 500 .*no domain/,
    );
    const misplaced = await check('[site:script:inject]', source(JS, 'events'));
    expect(misplaced.errors).toEqual([
      expect.objectContaining({
        path: 'script',
        message:
          '`fetch_published_script` is not an `events` handler, so it never runs there: give it to `createIntegration({ fetch_published_script })` itself.',
      }),
    ]);
  });
});

/** A site integration whose hook needs a `site_key` of a given form, or whose settings a screen saves. */
const keyed = (settings: string) => `name: keyed
title: Keyed
description: A script that needs a key.
organization: acme
visibility: private
target: site
script: src/index.ts
scopes: [site:script:inject]
configurations:
  site:
${settings}
`;
const REQUIRED_KEY = `    properties:
      site_key:
        type: string
        title: Site key
        description: Like AB-1234.
    required: [site_key]`;
const SCREEN = `    componentId: settings`;
/** Throws unless the key has the form the integration expects (as real trackers do). */
const strictHook = `import { createComponent, createIntegration } from '@platform/runtime';
const settings = createComponent({ componentId: 'settings', render: async () => <configuration><text>Key</text></configuration> });
export default createIntegration({
  components: [settings],
  fetch_published_script: async (event, { environment }) => {
    const key = String(environment.siteInstallation?.configuration.site_key ?? '');
    if (!/^AB-\\d+$/.test(key)) throw new Error('site key missing or malformed');
    return new Response('track(' + JSON.stringify(key) + ')', { headers: { 'content-type': 'application/javascript' } });
  },
});
`;

describe('platform check: a published-script hook that depends on its configuration', () => {
  it('warns, as a configuration-dependent failure naming the made-up values, when it fails on check samples', async () => {
    const report = await runCheck(
      fixture({ 'src/index.tsx': strictHook }, keyed(REQUIRED_KEY).replace('src/index.ts', 'src/index.tsx')),
      {
        firstParty: true,
        steps: [scriptCheckStep],
      },
    );
    expect(report.ok).toBe(true);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        path: 'script',
        message: expect.stringMatching(
          /^`fetch_published_script` failed in workerd: HTTP 500 [\s\S]*site key missing or malformed[\s\S]*; a configuration-dependent failure, not a boot failure: it ran with values check made up for required settings without a default \(\{"site_key":"sample"\}\)\. .*answer 204/,
        ),
      }),
    ]);
  });

  it('warns when a configuration screen saves the settings (a fresh site has none yet)', async () => {
    const report = await runCheck(
      fixture({ 'src/index.tsx': strictHook }, keyed(SCREEN).replace('src/index.ts', 'src/index.tsx')),
      {
        firstParty: true,
        steps: [scriptCheckStep],
      },
    );
    expect(report.errors).toEqual([]);
    expect(report.warnings[0]?.message).toMatch(
      /configuration-dependent failure, not a boot failure: its settings are saved by the configuration screen `settings`, which check cannot fill, so it ran with the configuration of a freshly installed site \(\{\}\)/,
    );
  });

  it('stays an error when the settings check gave are all the manifest defaults', async () => {
    const defaults = REQUIRED_KEY.replace(
      'description: Like AB-1234.',
      'description: Like AB-1234.\n        default: nope',
    );
    const report = await runCheck(
      fixture({ 'src/index.tsx': strictHook }, keyed(defaults).replace('src/index.ts', 'src/index.tsx')),
      {
        firstParty: true,
        steps: [scriptCheckStep],
      },
    );
    expect(report.errors).toEqual([
      expect.objectContaining({
        path: 'script',
        message: expect.stringMatching(
          /^`fetch_published_script` failed in workerd: [\s\S]*site key missing/,
        ),
      }),
    ]);
  });
});
