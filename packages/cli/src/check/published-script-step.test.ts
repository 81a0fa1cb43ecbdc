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
