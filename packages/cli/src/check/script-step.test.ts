import { describe, expect, it } from 'vitest';
import { fixture, MANIFEST, SOURCE } from '../test-fixtures.js';
import { runCheck } from './run-check.js';
import { lineOf, scriptCheckStep } from './script-step.js';

const check = (dir: string) => runCheck(dir, { steps: [scriptCheckStep] });

describe('scriptCheckStep (bundle + boot in workerd)', () => {
  it('passes a valid integration', async () => {
    expect(await check(fixture({ 'src/index.ts': SOURCE }))).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('reports a handler that crashes in workerd, with its logged error', async () => {
    const source = SOURCE.replace(
      'components: [counter]',
      "components: [counter], events: { installation_setup: async () => { throw new Error('setup exploded'); } }",
    );
    const report = await check(fixture({ 'src/index.ts': source }));
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ path: 'script', line: 6 });
    expect(report.errors[0]?.message).toMatch(
      /failed an installation_setup envelope in workerd: HTTP 500 .*setup exploded/,
    );
  });

  it('reports a block whose render fails, on the line of its id', async () => {
    const source = SOURCE.replace(
      "render: async () => ContentKit.block(ContentKit.text('hi'))",
      "render: async () => { throw new Error('no render'); }",
    );
    const report = await check(fixture({ 'src/index.ts': source }));
    expect(report.errors).toEqual([
      expect.objectContaining({
        path: 'blocks[0].id',
        line: 10,
        message: expect.stringMatching(/block `counter` failed to render in workerd/),
      }),
    ]);
  });

  it('warns (and does not fail) when no script is named and src/index.ts does not exist', async () => {
    const report = await check(fixture({}, MANIFEST.replace('script: src/index.ts\n', '')));
    expect(report.ok).toBe(true);
    expect(report.warnings[0]?.message).toMatch(/the script src\/index\.ts does not exist/);
  });
});

describe('lineOf', () => {
  it('finds top-level keys and block ids', () => {
    const text =
      'name: x\nscript: a.ts\nblocks:\n  - id: one\n    title: One\n  - title: Two\n    id: two\nother: 1\n';
    expect(lineOf(text, 'script')).toBe(2);
    expect(lineOf(text, 'blocks[0].id')).toBe(4);
    expect(lineOf(text, 'blocks[1].id')).toBe(7);
    expect(lineOf(text, 'missing')).toBe(1);
  });
});
