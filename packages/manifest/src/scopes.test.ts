import { describe, expect, it } from 'vitest';
import { parseManifest } from './parse.js';
import { EVENT_SCOPES, renameScopes, SCOPE_ALIASES, SCOPES } from './scopes.js';

const HEAD = 'name: demo\ntitle: Demo\ndescription: A demo\norganization: acme\nvisibility: private\n';

describe('renamed scopes', () => {
  it('maps every old name to a scope of SCOPES, none of them a current name', () => {
    for (const [old, current] of Object.entries(SCOPE_ALIASES)) {
      expect(SCOPES).toContain(current);
      expect(SCOPES).not.toContain(old);
    }
  });

  it('reads `page:feedback:read` as `site:views:read`, the scope page feedback needs here', () => {
    const result = parseManifest(`${HEAD}scopes:\n  - page:feedback:read\n`);
    expect(result.ok && result.manifest.scopes).toEqual(['site:views:read']);
    expect(EVENT_SCOPES.page_feedback).toBe('site:views:read');
  });

  it('loads an old name under its new one, with a warning at the list item', () => {
    const result = parseManifest(`${HEAD}scopes:\n  - space:content:read\n  - space:views:read\n`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.manifest.scopes).toEqual(['space:content:read', 'site:views:read']);
    expect(result.warnings).toEqual([
      {
        path: 'scopes[1]',
        line: 8,
        column: 5,
        message: '`space:views:read` is now `site:views:read`; rename it',
        severity: 'warning',
      },
    ]);
    // What routing reads: the event that needs the new name finds it.
    expect(result.manifest.scopes).toContain(EVENT_SCOPES.site_view);
  });

  it('applies the internal-scope rule to the new name: an old internal name needs first party', () => {
    const text = `${HEAD}scopes: [space:script:inject]\n`;
    const refused = parseManifest(text);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors).toEqual([
      expect.objectContaining({
        path: 'scopes[0]',
        message: expect.stringMatching(/^`site:script:inject` is an internal scope reserved to first-party/),
      }),
    ]);
    expect(refused.warnings.map((w) => w.message)).toEqual([
      '`space:script:inject` is now `site:script:inject`; rename it',
    ]);
    const granted = parseManifest(text, { firstParty: true });
    expect(granted.ok && granted.manifest.scopes).toEqual(['site:script:inject']);
    // The cookie scope's old name, the same way.
    const cookies = parseManifest(`${HEAD}scopes: [space:script:inject, space:script:cookies]\n`, {
      firstParty: true,
    });
    expect(cookies.ok && cookies.manifest.scopes).toEqual(['site:script:inject', 'site:script:cookies']);
  });

  it('says when the new name is listed too, and leaves other values to the schema', () => {
    const both = parseManifest(`${HEAD}scopes: [site:visitor:auth, space:visitor:auth]\n`);
    expect(both.ok).toBe(true);
    expect(both.warnings.map((w) => w.message)).toEqual([
      '`space:visitor:auth` is now `site:visitor:auth`; rename it',
      'scope `site:visitor:auth` is listed twice; remove one',
    ]);
    const unknown = parseManifest(`${HEAD}scopes: [space:views:reed]\n`);
    expect(unknown.ok).toBe(false);
    expect(renameScopes({ scopes: [1, 'x'] })).toEqual({ data: { scopes: [1, 'x'] }, warnings: [] });
  });
});
