/*
 * What the tests of examples/* share: the `platform check` every example must pass, and the
 * publish-then-install step that opens each browser test of an example.
 */
import { join } from 'node:path';
import { CHECK_STEPS, runCheck } from '@platform/cli';
import { expect, it } from 'vitest';
import type { ExampleSession } from '../../packages/dashboard/test/harness';
import { repoRoot } from '../../packages/host/test/helpers.js';

/**
 * Declares the test that `platform check` (every step) passes on `folder` (e.g. `examples/embed`)
 * with no error and no warning.
 *
 * @example
 * describe('examples/reminders', () => { itPassesCheck('examples/reminders'); });
 */
export function itPassesCheck(
  folder: string,
  title = 'passes platform check',
  options: { firstParty?: boolean } = {},
): void {
  it(title, async () => {
    expect(await runCheck(join(repoRoot, folder), { ...options, steps: CHECK_STEPS })).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
  });
}

/**
 * Publishes the session's example (with `env`) and installs `integration` in the space `docs`,
 * expecting 201 for both; returns the new installation as the host answered it.
 *
 * @example
 * const { id } = await publishAndInstall(example, 'diagram');
 */
export async function publishAndInstall<T extends { id: string } = { id: string }>(
  example: ExampleSession,
  integration: string,
  env: Record<string, string> = {},
): Promise<T> {
  const published = await example.publish(env);
  expect(published.status, JSON.stringify(published.body)).toBe(201);
  const installed = await example.t.api<T>('POST', '/v1/installations', { integration, space: 'docs' });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  return installed.body;
}
