import { describe, expect, it } from 'vitest';
import { parseManifest } from './parse.js';
import { BASE } from './test-fixtures.js';

// Keys optional in the file that matter later: warnings, defaults (README.md "Optional keys").
const withBase = (extra: string) => BASE + extra;
const without = (key: string) =>
  BASE.split('\n')
    .filter((l) => !l.startsWith(`${key}:`))
    .join('\n');

const cases = [
  {
    name: 'missing organization is a warning naming the three ways to supply it',
    yaml: without('organization'),
    expect: {
      path: 'organization',
      line: 1,
      column: 1,
      severity: 'warning',
      message:
        /`platform publish` will need it; pass `--organization <id>`, set it in `envs.<name>`.*add `organization: <id>` here/,
    },
  },
  {
    name: 'empty description is a warning',
    yaml: BASE.replace('description: A demo integration', 'description: ""'),
    expect: {
      path: 'description',
      line: 3,
      column: 14,
      severity: 'warning',
      message: /`description` is empty/,
    },
  },
  {
    name: 'missing description is a warning',
    yaml: without('description'),
    expect: {
      path: 'description',
      line: 1,
      column: 1,
      severity: 'warning',
      message: /`description` is empty/,
    },
  },
  {
    name: 'block without description is a warning at its id',
    yaml: withBase('blocks:\n  - id: a\n    title: A\n'),
    expect: {
      path: 'blocks[0].id',
      line: 8,
      column: 9,
      severity: 'warning',
      message: /block `a` has no `description`/,
    },
  },
];

describe('parseManifest: optional keys', () => {
  it.each(cases)('$name', ({ yaml, expect: want }) => {
    const result = parseManifest(yaml);
    expect(result.ok).toBe(true);
    const found = result.warnings.find((w) => w.path === want.path && want.message.test(w.message));
    expect(found, JSON.stringify(result.warnings, null, 2)).toBeDefined();
    expect({ line: found?.line, column: found?.column, severity: found?.severity }).toEqual({
      line: want.line,
      column: want.column,
      severity: 'warning',
    });
  });

  it('defaults `visibility` to private and `description` to empty', () => {
    const result = parseManifest(without('visibility'));
    expect(result).toMatchObject({ ok: true, warnings: [], manifest: { visibility: 'private' } });
    const bare = parseManifest('name: bare\ntitle: Bare\nscopes: []\n');
    expect(bare.ok && bare.manifest).toEqual({
      name: 'bare',
      title: 'Bare',
      description: '',
      visibility: 'private',
      scopes: [],
    });
    expect(bare.warnings.map((w) => w.path)).toEqual(['organization', 'description']);
  });
});

describe('optional keys written with no value, and categories', () => {
  it('reads an optional key with no value as left out, with a warning; a required one stays an error', () => {
    const result = parseManifest(`${BASE}summary:\n`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.manifest.summary).toBeUndefined();
    expect(result.warnings).toEqual([
      expect.objectContaining({
        path: 'summary',
        severity: 'warning',
        message: '`summary` has no value, so it is left out; give it a value or remove the key',
      }),
    ]);
    const required = parseManifest(BASE.replace(/^title: .*$/m, 'title:'));
    expect(required.ok).toBe(false);
  });

  it('lists an unknown category as written, with a warning and a did-you-mean; refuses what is no slug', () => {
    const result = parseManifest(`${BASE}categories: [analytics, support, analytcs]\n`);
    expect(result.ok && result.manifest.categories).toEqual(['analytics', 'support', 'analytcs']);
    expect(result.ok && result.warnings.map((w) => [w.path, w.message])).toEqual([
      ['categories[1]', expect.stringMatching(/^`support` is not a known category \(analytics, /)],
      ['categories[2]', expect.stringMatching(/Did you mean `analytics`\?$/)],
    ]);
    expect(parseManifest(`${BASE}categories: ['Support Desk']\n`).ok).toBe(false);
  });
});
