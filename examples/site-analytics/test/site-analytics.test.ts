import { join } from 'node:path';
import { CHECK_STEPS, runCheck } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../packages/host/test/helpers.js';
import { itPassesCheck } from '../../../test/examples/support';

const dir = join(repoRoot, 'examples/site-analytics');

describe('examples/site-analytics', () => {
  itPassesCheck(
    'examples/site-analytics',
    'passes platform check --first-party (its fetch_published_script called once in workerd)',
    { firstParty: true },
  );

  it('needs --first-party: site:script:inject is internal', async () => {
    const report = await runCheck(dir, { steps: CHECK_STEPS });
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([
      expect.objectContaining({ path: 'scopes[0]', message: expect.stringMatching(/internal scope/) }),
    ]);
  });
});
