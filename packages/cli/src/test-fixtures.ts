import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCheck } from './check/run-check.js';
import { scriptCheckStep } from './check/script-step.js';

/** A manifest with one block `counter` (tests only). */
export const MANIFEST = `name: fixture
title: Fixture
description: A test integration.
organization: acme
visibility: private
script: src/index.ts
scopes:
  - space:content:read
blocks:
  - id: counter
    title: Counter
    description: Counts.
`;

/** A valid integration source with the `counter` component (tests only). */
export const SOURCE = `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';
const counter = createComponent({ componentId: 'counter', render: async () => ContentKit.block(ContentKit.text('hi')) });
export default createIntegration({ components: [counter] });
`;

/**
 * Writes an integration folder in a temp dir (tests only).
 *
 * @example
 * ```ts
 * const dir = fixture({ 'src/index.ts': SOURCE });
 * ```
 */
export function fixture(files: Record<string, string>, manifest = MANIFEST): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-cli-fixture-'));
  for (const [file, content] of Object.entries({ 'platform-manifest.yaml': manifest, ...files })) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

/** The report of a `platform check` that found nothing. */
export const PASSED = { ok: true, errors: [], warnings: [] };

/**
 * Runs the script step of `platform check` (bundle, boot and render in workerd) on a new {@link fixture}
 * folder of `files` and `manifest`; its report.
 *
 * @example
 * ```ts
 * expect(await checkScript({ 'src/index.ts': SOURCE })).toEqual(PASSED);
 * ```
 */
export function checkScript(files: Record<string, string>, manifest = MANIFEST) {
  return runCheck(fixture(files, manifest), { steps: [scriptCheckStep] });
}
