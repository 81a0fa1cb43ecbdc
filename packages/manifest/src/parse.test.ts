// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ env.NAME }}` is the secret expression syntax under test
import { describe, expect, it } from 'vitest';
import { type ParseOptions, parseManifest } from './parse.js';
import { BASE } from './test-fixtures.js';

const withBase = (extra: string) => BASE + extra;
const without = (key: string) =>
  BASE.split('\n')
    .filter((l) => !l.startsWith(`${key}:`))
    .join('\n');

interface Case {
  name: string;
  yaml: string;
  options?: ParseOptions;
  /** The issue that must be reported (exact path, line, column). */
  expect?: { path: string; line: number; column: number; severity?: 'error' | 'warning'; message?: RegExp };
}

/** Where the property `url` of the `site` configuration, which {@link PROPERTY} writes, is reported. */
const URL_PROPERTY = 'configurations.site.properties.url';
const PROPERTY = (lines: string) => `configurations:
  site:
    properties:
      url:
${lines}`;

const cases: Case[] = [
  // YAML-level problems
  { name: 'empty file', yaml: '', expect: { path: '', line: 1, column: 1, message: /is empty/ } },
  {
    name: 'only comments',
    yaml: '# nothing\n',
    expect: { path: '', line: 1, column: 1, message: /is empty/ },
  },
  {
    name: 'top level is a list',
    yaml: '- a\n- b\n',
    expect: { path: '', line: 1, column: 1, message: /mapping.*got a list/ },
  },
  {
    name: 'top level is a scalar',
    yaml: 'hello\n',
    expect: { path: '', line: 1, column: 1, message: /mapping/ },
  },
  {
    name: 'unclosed flow sequence',
    yaml: 'name: demo\nscopes: [a\n',
    expect: { path: '', line: 3, column: 1, message: /YAML syntax/ },
  },
  {
    name: 'duplicate key',
    yaml: withBase('name: again\n'),
    expect: { path: '', line: 7, column: 1, message: /appears twice/ },
  },
  {
    name: 'two documents',
    yaml: `${BASE}---\nname: x\n`,
    expect: { path: '', line: 7, column: 1, message: /single YAML document/ },
  },
  {
    name: 'tab indentation',
    yaml: 'blocks:\n\t- id: a\n',
    expect: { path: '', line: 2, column: 1, message: /tabs/ },
  },
  {
    name: 'unresolved alias',
    yaml: withBase('summary: *nothing\n'),
    expect: { path: '', line: 1, column: 1, message: /alias/i },
  },
  // required keys and scalar types
  {
    name: 'missing name',
    yaml: without('name'),
    expect: { path: 'name', line: 1, column: 1, message: /missing required key `name`/ },
  },
  { name: 'missing scopes', yaml: without('scopes'), expect: { path: 'scopes', line: 1, column: 1 } },
  {
    name: 'name is a number',
    yaml: BASE.replace('name: demo', 'name: 42'),
    expect: { path: 'name', line: 1, column: 7, message: /must be a string, got `42`/ },
  },
  {
    name: 'name not a slug',
    yaml: BASE.replace('name: demo', 'name: My_Int'),
    expect: { path: 'name', line: 1, column: 7, message: /lowercase slug/ },
  },
  {
    name: 'name ends with hyphen',
    yaml: BASE.replace('name: demo', 'name: demo-'),
    expect: { path: 'name', line: 1, column: 7 },
  },
  {
    name: 'name longer than 64',
    yaml: BASE.replace('name: demo', `name: ${'a'.repeat(65)}`),
    expect: { path: 'name', line: 1, column: 7, message: /at most 64/ },
  },
  {
    name: 'empty title',
    yaml: BASE.replace('title: Demo', 'title: ""'),
    expect: { path: 'title', line: 2, column: 8, message: /must not be empty/ },
  },
  {
    name: 'title without value',
    yaml: BASE.replace('title: Demo', 'title:'),
    expect: { path: 'title', line: 2, column: 7, message: /got nothing/ },
  },
  {
    name: 'summary over 2048 chars',
    yaml: withBase(`summary: ${'x'.repeat(2049)}\n`),
    expect: { path: 'summary', line: 7, column: 10, message: /2048.*it has 2049/ },
  },
  {
    name: 'visibility not in enum',
    yaml: BASE.replace('visibility: private', 'visibility: secret'),
    expect: { path: 'visibility', line: 5, column: 13, message: /one of `private`, `unlisted`, `public`/ },
  },
  {
    name: 'visibility typo gets a suggestion',
    yaml: BASE.replace('visibility: private', 'visibility: privat'),
    expect: { path: 'visibility', line: 5, column: 13, message: /Did you mean `private`\?/ },
  },
  // scopes
  {
    name: 'scopes not a list',
    yaml: BASE.replace('scopes: [space:content:read]', 'scopes: space:content:read'),
    expect: { path: 'scopes', line: 6, column: 9, message: /must be a list/ },
  },
  {
    name: 'unknown scope',
    yaml: BASE.replace('space:content:read', 'space:content:reed'),
    expect: { path: 'scopes[0]', line: 6, column: 10, message: /Did you mean `space:content:read`/ },
  },
  {
    name: 'internal scope without first party',
    yaml: BASE.replace('[space:content:read]', '[space:content:read, site:script:inject]'),
    expect: { path: 'scopes[1]', line: 6, column: 30, message: /internal scope/ },
  },
  {
    name: 'cookies scope is internal too',
    yaml: withBase('').replace('scopes: [space:content:read]', 'scopes:\n  - site:script:cookies'),
    expect: { path: 'scopes[0]', line: 7, column: 5, message: /internal scope/ },
  },
  {
    name: 'duplicate scope warns',
    yaml: BASE.replace('[space:content:read]', '[space:content:read, space:content:read]'),
    expect: { path: 'scopes[1]', line: 6, column: 30, severity: 'warning' },
  },
  // unknown keys
  {
    name: 'unknown top-level key with suggestion',
    yaml: withBase('summmary: hi\n'),
    expect: {
      path: 'summmary',
      line: 7,
      column: 1,
      message: /unknown key `summmary` at the top level\. Did you mean `summary`\?/,
    },
  },
  {
    name: 'unknown top-level key lists allowed keys',
    yaml: withBase('zzzz: 1\n'),
    expect: { path: 'zzzz', line: 7, column: 1, message: /Allowed keys: name, title/ },
  },
  {
    name: 'categories value not known (a warning)',
    yaml: withBase('categories: [analytics, sales]\n'),
    expect: { path: 'categories[1]', line: 7, column: 25, severity: 'warning' },
  },
  // blocks
  {
    name: 'block missing title',
    yaml: withBase('blocks:\n  - id: a\n    description: d\n'),
    expect: { path: 'blocks[0].title', line: 8, column: 5, message: /missing required key `title`/ },
  },
  {
    name: 'duplicate block ids',
    yaml: withBase(
      'blocks:\n  - { id: a, title: A, description: d }\n  - { id: a, title: B, description: d }\n',
    ),
    expect: { path: 'blocks[1].id', line: 9, column: 11, message: /already used by blocks\[0\]/ },
  },
  {
    name: 'unknown key in a block',
    yaml: withBase('blocks:\n  - id: a\n    titel: A\n    description: d\n'),
    expect: { path: 'blocks[0].titel', line: 9, column: 5, message: /Did you mean `title`/ },
  },
  {
    name: 'blocks item is a string',
    yaml: withBase('blocks:\n  - a\n'),
    expect: { path: 'blocks[0]', line: 8, column: 5, message: /must be a mapping/ },
  },
  // externalLinks
  {
    name: 'link with ftp url',
    yaml: withBase('externalLinks:\n  - label: Docs\n    url: ftp://example.com\n'),
    expect: { path: 'externalLinks[0].url', line: 9, column: 10, message: /http\(s\) URL/ },
  },
  {
    name: 'link url not a url',
    yaml: withBase('externalLinks:\n  - label: Docs\n    url: not a url\n'),
    expect: { path: 'externalLinks[0].url', line: 9, column: 10 },
  },
  {
    name: 'link without label',
    yaml: withBase('externalLinks:\n  - url: https://example.com\n'),
    expect: { path: 'externalLinks[0].label', line: 8, column: 5 },
  },
  // configurations
  {
    name: 'unknown configuration place',
    yaml: withBase('configurations:\n  acount:\n    properties: {}\n'),
    expect: { path: 'configurations.acount', line: 8, column: 3, message: /Did you mean `account`/ },
  },
  {
    name: 'place without properties nor componentId',
    yaml: withBase('configurations:\n  site:\n    required: []\n'),
    expect: { path: 'configurations.site', line: 9, column: 5, message: /`properties`.*`componentId`/ },
  },
  {
    name: 'property type unknown',
    yaml: withBase(PROPERTY('        type: strin\n        title: URL\n        description: d\n')),
    expect: { path: `${URL_PROPERTY}.type`, line: 11, column: 15, message: /Did you mean `string`/ },
  },
  {
    name: 'property type missing',
    yaml: withBase(PROPERTY('        title: URL\n        description: d\n')),
    expect: { path: `${URL_PROPERTY}.type`, line: 11, column: 9, message: /missing required key `type`/ },
  },
  {
    name: 'property is not a mapping',
    yaml: withBase('configurations:\n  site:\n    properties:\n      url: 5\n'),
    expect: { path: URL_PROPERTY, line: 10, column: 12 },
  },
  {
    name: 'property name with a space',
    yaml: withBase(
      'configurations:\n  site:\n    properties:\n      my url: { type: string, title: U, description: d }\n',
    ),
    expect: { path: 'configurations.site.properties.my url', line: 10, column: 7, message: /invalid name/ },
  },
  {
    name: 'property missing description',
    yaml: withBase(PROPERTY('        type: string\n        title: URL\n')),
    expect: { path: `${URL_PROPERTY}.description`, line: 11, column: 9 },
  },
  {
    name: 'enum on a number property',
    yaml: withBase(
      PROPERTY('        type: number\n        title: N\n        description: d\n        enum: [1, 2]\n'),
    ),
    expect: {
      path: `${URL_PROPERTY}.enum`,
      line: 14,
      column: 9,
      message: /not allowed on a property of type `number`; only `string`/,
    },
  },
  {
    name: 'number default is a string',
    yaml: withBase(
      PROPERTY('        type: number\n        title: N\n        description: d\n        default: "5"\n'),
    ),
    expect: { path: `${URL_PROPERTY}.default`, line: 14, column: 18, message: /must be a number/ },
  },
  {
    name: 'boolean default is a string',
    yaml: withBase(
      PROPERTY('        type: boolean\n        title: B\n        description: d\n        default: yes\n'),
    ),
    expect: { path: `${URL_PROPERTY}.default`, line: 14, column: 18, message: /`true` or `false`/ },
  },
  {
    name: 'string default outside enum',
    yaml: withBase(
      PROPERTY(
        '        type: string\n        title: S\n        description: d\n        enum: [red, blue]\n        default: green\n',
      ),
    ),
    expect: { path: `${URL_PROPERTY}.default`, line: 15, column: 18, message: /not one of `enum`/ },
  },
  {
    name: 'empty enum',
    yaml: withBase(
      PROPERTY('        type: string\n        title: S\n        description: d\n        enum: []\n'),
    ),
    expect: { path: `${URL_PROPERTY}.enum`, line: 14, column: 15, message: /at least one value/ },
  },
  {
    name: 'enum and completion_url together',
    yaml: withBase(
      PROPERTY(
        '        type: string\n        title: S\n        description: d\n        enum: [a]\n        completion_url: /options\n',
      ),
    ),
    expect: { path: `${URL_PROPERTY}.completion_url`, line: 15, column: 25, message: /not both/ },
  },
  {
    name: 'completion_url is a full URL',
    yaml: withBase(
      PROPERTY(
        '        type: string\n        title: S\n        description: d\n        completion_url: https://x.test/c\n',
      ),
    ),
    expect: { path: `${URL_PROPERTY}.completion_url`, line: 14, column: 25, message: /starting with `\/`/ },
  },
  {
    name: 'button without callback_url',
    yaml: withBase(
      PROPERTY(
        '        type: button\n        title: Connect\n        description: d\n        button_text: Connect\n',
      ),
    ),
    expect: {
      path: `${URL_PROPERTY}.callback_url`,
      line: 11,
      column: 9,
      message: /missing required key `callback_url`/,
    },
  },
  {
    name: 'button without button_text',
    yaml: withBase(
      PROPERTY(
        '        type: button\n        title: Connect\n        description: d\n        callback_url: /oauth\n',
      ),
    ),
    expect: { path: `${URL_PROPERTY}.button_text`, line: 11, column: 9 },
  },
  {
    name: 'button_text on a string property',
    yaml: withBase(
      PROPERTY('        type: string\n        title: S\n        description: d\n        button_text: Go\n'),
    ),
    expect: { path: `${URL_PROPERTY}.button_text`, line: 14, column: 9, message: /only `button` properties/ },
  },
  {
    name: 'required names an undefined property',
    yaml: withBase(
      `${PROPERTY('        type: string\n        title: S\n        description: d\n')}    required: [uri]\n`,
    ),
    expect: {
      path: 'configurations.site.required[0]',
      line: 14,
      column: 16,
      message: /not a property defined/,
    },
  },
  // secrets
  {
    name: 'secret with a bad expression',
    yaml: withBase('secrets:\n  TOKEN: ${{ secrets.TOKEN }}\n'),
    expect: { path: 'secrets.TOKEN', line: 8, column: 10, message: /env\.NAME/ },
  },
  {
    name: 'secret with an unclosed expression',
    yaml: withBase('secrets:\n  TOKEN: "${{ env.TOKEN"\n'),
    expect: { path: 'secrets.TOKEN', line: 8, column: 10, message: /not closed/ },
  },
  {
    name: 'secret value is a number',
    yaml: withBase('secrets:\n  TOKEN: 12345\n'),
    expect: { path: 'secrets.TOKEN', line: 8, column: 10, message: /must be a string, got a number$/ },
  },
  {
    name: 'secret name not an identifier',
    yaml: withBase('secrets:\n  1TOKEN: ${{ env.X }}\n'),
    expect: { path: 'secrets.1TOKEN', line: 8, column: 3 },
  },
  {
    name: 'literal secret warns',
    yaml: withBase('secrets:\n  TOKEN: abc\n'),
    expect: { path: 'secrets.TOKEN', line: 8, column: 10, severity: 'warning', message: /literal value/ },
  },
  {
    name: 'script is a list',
    yaml: withBase('script: [a.ts]\n'),
    expect: { path: 'script', line: 7, column: 9 },
  },
];

describe('parseManifest: one case per rule', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('$name', ({ yaml, options, expect: want }) => {
    const result = parseManifest(yaml, options);
    if (!want) throw new Error('case without expectation');
    const severity = want.severity ?? 'error';
    if (severity === 'error') expect(result.ok).toBe(false);
    const issues = result.ok ? result.warnings : severity === 'error' ? result.errors : result.warnings;
    const found = issues.find((i) => i.path === want.path && (!want.message || want.message.test(i.message)));
    expect(found, JSON.stringify(issues, null, 2)).toBeDefined();
    expect({ line: found?.line, column: found?.column, severity: found?.severity }).toEqual({
      line: want.line,
      column: want.column,
      severity,
    });
    expect(found?.message).not.toContain('\n');
  });
});

const FULL = `name: full-demo
title: Full demo
description: Uses everything
summary: "# Hello"
organization: acme
visibility: public
scopes: [space:content:read, site:views:read]
categories: [analytics, other]
blocks:
  - { id: one, title: One, description: first }
  - { id: two, title: Two, description: second }
externalLinks:
  - { label: Docs, url: "https://example.com/docs" }
configurations:
  account:
    properties:
      oauth: { type: button, title: Connect, description: d, button_text: Connect, callback_url: /oauth }
    required: [oauth]
  site:
    properties:
      color: { type: string, title: C, description: d, enum: [red, blue], default: red }
      count: { type: number, title: N, description: d, default: 3 }
      on: { type: boolean, title: B, description: d, default: true }
      channel: { type: string, title: Ch, description: d, completion_url: /channels }
secrets:
  CLIENT: \${{ env.CLIENT_ID }}
  PAIR: "\${{env.A}}:\${{ env.B }}"
`;

describe('parseManifest: valid manifests', () => {
  it('accepts the minimal manifest and types it', () => {
    const result = parseManifest(BASE);
    expect(result).toEqual({
      ok: true,
      warnings: [],
      manifest: {
        name: 'demo',
        title: 'Demo',
        description: 'A demo integration',
        organization: 'acme',
        visibility: 'private',
        scopes: ['space:content:read'],
      },
    });
  });

  it('accepts every feature at once', () => {
    const result = parseManifest(FULL);
    expect(result.ok ? result.warnings : result.errors).toEqual([]);
    expect(result.ok && result.manifest.configurations?.site?.properties?.count).toMatchObject({
      default: 3,
    });
  });

  it('grants internal scopes only when the caller says first party', () => {
    const yaml = BASE.replace('[space:content:read]', '[site:script:inject, site:script:cookies]');
    expect(parseManifest(yaml).ok).toBe(false);
    expect(parseManifest(yaml, { firstParty: true }).ok).toBe(true);
  });

  it('collects every error in one pass, sorted by position', () => {
    const yaml = 'name: Bad Name\ntitle: 3\nvisibility: nope\nscopes: [x]\nextra: 1\n';
    const result = parseManifest(yaml);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['name', 'title', 'visibility', 'scopes[0]', 'extra']),
    );
    const positions = result.errors.map((e) => e.line * 1000 + e.column);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('uses the file name in whole-file messages', () => {
    const result = parseManifest('', { fileName: 'my.yaml' });
    expect(!result.ok && result.errors[0]?.message).toMatch(/^my\.yaml is empty/);
  });
});

describe('parseManifest: messages', () => {
  it('keep user text with line breaks on one line', () => {
    const result = parseManifest(`${BASE}? [\n  #\n]\n: 1\n"multi\n  line": 2\n`);
    expect(result.ok).toBe(false);
    for (const issue of result.ok ? [] : result.errors) expect(issue.message).not.toMatch(/[\r\n]/);
  });
});
