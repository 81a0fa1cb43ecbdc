import { describe, expect, it } from 'vitest';
import { itPassesCheck } from '../../../test/examples/support';
import { pageId, parseFeed } from '../src/index';

describe('examples/release-notes', () => {
  itPassesCheck('examples/release-notes');

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
