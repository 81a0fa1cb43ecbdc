import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { actionsIn, allowedEvents, causeOf, placesOf, runStage } from './run-stage.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('run stage: its pure parts', () => {
  it('names the cause of a failure from its message', () => {
    expect(causeOf("TypeError: Cannot read properties of undefined (reading 'x')")).toBe(
      'undefined property',
    );
    expect(causeOf('TypeError: Invalid URL string.')).toBe('invalid URL');
    expect(causeOf('TypeError: fetch failed')).toBe('network (offline machine)');
    expect(causeOf('Error: something else')).toBe('other');
  });

  it('finds the actions of a rendered tree once each, but the editor-only ones', () => {
    const element = {
      type: 'block',
      children: [
        { type: 'button', onPress: { action: 'save' } },
        { type: 'button', onPress: { action: 'save' } },
        { type: 'button', onPress: { action: '@ui.url.open', url: 'https://x' } },
        { type: 'textinput', onValueChange: { action: 'typed', value: 1 } },
      ],
    };
    expect(actionsIn(element)).toEqual([{ action: 'save' }, { action: 'typed', value: 1 }]);
  });

  it('sends the events the scopes allow, installs where the target says', () => {
    expect(allowedEvents({ scopes: ['site:views:read'] })).toEqual(['site_view', 'page_feedback']);
    expect(allowedEvents({ scopes: [] })).toEqual([]);
    expect(placesOf({ target: 'all' }, 'x').map((p) => p.target)).toEqual(['space', 'site']);
    expect(placesOf({ target: 'organization' }, 'x').map((p) => p.target)).toEqual(['organization']);
  });
});

/** A small integration written for this test: a block whose action, or an event, throws when `broken`. */
function writeIntegration(dir, name, broken) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'platform-manifest.yaml'),
    `name: ${name}\ntitle: ${name}\ndescription: run stage test\norganization: test\nvisibility: private\ntarget: space\nscript: src/index.ts\nscopes:\n  - space:content:read\nblocks:\n  - id: panel\n    title: Panel\n    description: A panel.\n`,
  );
  writeFileSync(
    join(dir, 'src/index.ts'),
    `import { createComponent, createIntegration } from '@platform/runtime';
const broken = ${broken};
const none: Record<string, { x: number }> = {};
const panel = createComponent({
  componentId: 'panel',
  render: async () => ({ type: 'block', children: [{ type: 'button', label: 'Go', onPress: { action: 'go' } }] }),
  action: async () => {
    if (broken) return { state: { x: none.missing.x } };
    return {};
  },
});
export default createIntegration({
  components: [panel],
  events: { space_view: async (_event, { logger }) => logger.info('viewed') },
});
`,
  );
}

describe('run stage on a host', () => {
  // Inside the repository (under the ignored .tmp/), so the integrations resolve @platform/runtime.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const work = mkdtempSync(join(ROOT, '.tmp', 'run-stage-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes an integration that runs, fails one whose action throws, with the cause and the step', async () => {
    writeIntegration(join(work, 'fine'), 'run-fine', false);
    writeIntegration(join(work, 'broken'), 'run-broken', true);
    const lines = [];
    const run = await runStage(
      ROOT,
      [
        { name: 'fine', dir: join(work, 'fine'), firstParty: false },
        { name: 'broken', dir: join(work, 'broken'), firstParty: false },
      ],
      (line) => lines.push(line),
    );
    expect(run.passed).toBe(1);
    const [fine, broken] = run.rows;
    expect(fine).toMatchObject({ ok: true, renders: 1, actions: 1, failures: [] });
    // space_content_updated, space_view (the scope's events) and the set-up arrived
    expect(fine.events).toBe(2);
    expect(fine.invocations).toBeGreaterThanOrEqual(5);
    expect(broken.ok).toBe(false);
    expect(broken.failures).toEqual([
      expect.objectContaining({ step: 'invocation ui_render', cause: 'undefined property' }),
    ]);
    expect(run.byCause).toEqual({ 'undefined property': 1 });
    expect(lines[1]).toMatch(/^FAIL {2}broken: \[undefined property\]/);
  }, 120_000);
});
