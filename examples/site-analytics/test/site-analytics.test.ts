import { join } from 'node:path';
import { CHECK_STEPS, runCheck } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../packages/host/test/helpers.js';

const dir = join(repoRoot, 'examples/site-analytics');

describe('examples/site-analytics', () => {
  it('passes platform check --first-party (its fetch_published_script called once in workerd)', async () => {
    expect(await runCheck(dir, { firstParty: true, steps: CHECK_STEPS })).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
  });

  it('needs --first-party: site:script:inject is internal', async () => {
    const report = await runCheck(dir, { steps: CHECK_STEPS });
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([
      expect.objectContaining({ path: 'scopes[0]', message: expect.stringMatching(/internal scope/) }),
    ]);
  });
});
