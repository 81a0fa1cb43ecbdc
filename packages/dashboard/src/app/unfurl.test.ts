import { describe, expect, it } from 'vitest';
import { matchesUnfurl, unfurlTarget } from './unfurl';

describe('urlUnfurl patterns', () => {
  it('matches prefixes, * as one segment and ** as any rest', () => {
    expect(matchesUnfurl('https://www.figma.com/file/', 'https://www.figma.com/file/abc/Name')).toBe(true);
    expect(matchesUnfurl('https://www.figma.com/file/', 'https://www.figma.com/proto/abc')).toBe(false);
    expect(matchesUnfurl('https://github.com/**', 'https://github.com/a/b/blob/main/x.ts')).toBe(true);
    expect(matchesUnfurl('https://github.com/*/issues', 'https://github.com/acme/issues')).toBe(true);
    expect(matchesUnfurl('https://github.com/*/issues', 'https://github.com/acme/repo/issues')).toBe(false);
    expect(matchesUnfurl('https://*.example.com/**', 'https://docs.example.com/x')).toBe(true);
    expect(matchesUnfurl('https://*.example.com/**', 'https://example.org.evil/x')).toBe(false);
  });

  it('finds the block a pasted URL creates; plain text creates none', () => {
    const items = [{ id: 'a' }, { id: 'b', urlUnfurl: ['https://github.com/**'] }];
    expect(unfurlTarget(items, ' https://github.com/acme/x \n')?.id).toBe('b');
    expect(unfurlTarget(items, 'see https://github.com/acme/x')).toBeUndefined();
    expect(unfurlTarget(items, 'https://gitlab.com/x')).toBeUndefined();
  });
});
