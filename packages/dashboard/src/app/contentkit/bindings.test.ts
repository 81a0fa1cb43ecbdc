import { describe, expect, it } from 'vitest';
import { resolveUrl } from './bindings';

describe('resolveUrl (select options from a URL)', () => {
  it('keeps an http(s) URL as given', () => {
    expect(resolveUrl('https://example.com/o?x=1', {})).toBe('https://example.com/o?x=1');
  });

  it('builds https URLs from parts, http for a loopback host, with query bindings read from state', () => {
    const query = { project: { $state: 'project' }, v: 3, all: true, missing: { $state: 'none' } };
    expect(
      resolveUrl({ host: 'integrations.example.com', pathname: '/x/branches', query }, { project: 'a b' }),
    ).toBe('https://integrations.example.com/x/branches?project=a+b&v=3&all=true');
    for (const host of ['localhost:8080', '127.0.0.1:9000', '[::1]:3000']) {
      expect(resolveUrl({ host, pathname: '/p' }, {})).toBe(`http://${host}/p`);
    }
    expect(resolveUrl({ host: '127.0.0.1.example.com', pathname: '/p' }, {})).toBe(
      'https://127.0.0.1.example.com/p',
    );
  });
});
