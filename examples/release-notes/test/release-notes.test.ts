import { join } from 'node:path';
import { CHECK_STEPS, runCheck } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../packages/host/test/helpers.js';
import { pageId, parseFeed } from '../src/index';

describe('examples/release-notes', () => {
  it('passes platform check', async () => {
    expect(await runCheck(join(repoRoot, 'examples/release-notes'), { steps: CHECK_STEPS })).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
  });

  it('reads the feed and names pages after tags', () => {
    expect(parseFeed([{ tag: 'v1', name: 'One', notes: 'n' }])).toEqual([
      { tag: 'v1', name: 'One', date: '', notes: 'n' },
    ]);
    expect(() => parseFeed({})).toThrow(/not a JSON array/);
    expect(() => parseFeed([{ tag: 'v1' }])).toThrow(
      /release 0 of the feed needs string tag, name and notes/,
    );
    expect(pageId('release 1/2')).toBe('release-1-2');
  });
});
