import { describe, expect, it } from 'vitest';
import { manifestForEnv } from './envs.js';
import { manifestJsonSchema } from './json-schema.js';
import { parseManifest } from './parse.js';
import { cspDirectives } from './targets.js';
import { BASE, issueLike, issuesOf } from './test-fixtures.js';

describe('manifest keys of real integrations', () => {
  it('accepts target, contentSecurityPolicy, a configuration component, markdown and urlUnfurl blocks, envs', () => {
    const result = parseManifest(`${BASE}target: site
contentSecurityPolicy:
  script-src: |
    https://plausible.io;
  connect-src: plausible.io
categories: [visitor-auth, gitsync]
blocks:
  - id: diagram
    title: Diagram
    description: A Mermaid diagram
    markdown:
      codeblock: mermaid
      body: content
  - id: embed
    title: Embed
    description: Pasted link
    urlUnfurl:
      - https://github.com/**
      - https://www.figma.com/file/
configurations:
  account:
    componentId: config
  site:
    properties:
      domain:
        type: string
        title: Domain
        description: The site domain.
    required: [domain]
envs:
  staging:
    organization: acme-staging
    visibility: unlisted
`);
    expect(result.ok ? result.warnings : result.errors).toEqual([]);
    if (!result.ok) return;
    expect(result.manifest.target).toBe('site');
    expect(result.manifest.blocks?.[0]?.markdown).toEqual({ codeblock: 'mermaid', body: 'content' });
    expect(result.manifest.configurations?.account?.componentId).toBe('config');
    expect(cspDirectives(result.manifest.contentSecurityPolicy)).toEqual({
      'script-src': ['https://plausible.io'],
      'connect-src': ['plausible.io'],
    });
    const staging = manifestForEnv(result.manifest, 'staging');
    expect([staging.organization, staging.visibility, staging.name]).toEqual([
      'acme-staging',
      'unlisted',
      'demo',
    ]);
    expect(() => manifestForEnv(result.manifest, 'prod')).toThrow(
      /`prod` is not declared in `envs` \(declared: `staging`\)/,
    );
  });

  it('reports wrong values with line, column and did-you-mean', () => {
    expect(issuesOf('target: spaces\n')).toEqual([
      issueLike({ path: 'target', line: 7, column: 9, message: /did you mean `space`/i }),
    ]);
    expect(issuesOf('contentSecurityPolicy:\n  scrpt-src: https://a.example\n')).toEqual([
      issueLike({ line: 8, message: /scrpt-src.*did you mean `script-src`/is }),
    ]);
    expect(
      issuesOf('blocks:\n  - id: x\n    title: X\n    description: d\n    urlUnfurl: [github.com/**]\n'),
    ).toEqual([issueLike({ path: 'blocks[0].urlUnfurl[0]', line: 11, message: /http\(s\) URL prefix/ })]);
    expect(
      issuesOf('blocks:\n  - id: x\n    title: X\n    description: d\n    markdown: {codeblock: mermaid}\n'),
    ).toEqual([issueLike({ path: 'blocks[0].markdown.body', line: 11 })]);
    expect(issuesOf('envs:\n  Staging:\n    organization: x\n')).toEqual([
      issueLike({ line: 8, message: /environment names use lowercase/ }),
    ]);
    expect(issuesOf('envs:\n  staging:\n    organizaton: x\n')).toEqual([
      issueLike({ line: 9, message: /did you mean `organization`/i }),
    ]);
  });

  it('asks a configuration for properties or a component, and warns about places the target never shows', () => {
    expect(issuesOf('configurations:\n  account:\n    required: []\n')).toEqual([
      issueLike({
        path: 'configurations.account',
        severity: 'error',
        message: /`properties`.*`componentId`/,
      }),
    ]);
    expect(issuesOf('target: space\nconfigurations:\n  site:\n    componentId: site-config\n')).toEqual([
      issueLike({
        path: 'configurations.site',
        severity: 'warning',
        message: /`target: space` installs only in `account` and `space`/,
      }),
    ]);
    // A site installation uses `space` settings when there are no `site` ones (settingsPlace).
    const spaceOnly = 'target: site\nconfigurations:\n  space:\n    componentId: config\n';
    expect(issuesOf(spaceOnly)).toEqual([]);
    expect(issuesOf(`${spaceOnly}  site:\n    componentId: config\n`)).toEqual([
      issueLike({ path: 'configurations.space', severity: 'warning' }),
    ]);
  });

  it('is in the JSON Schema', () => {
    const schema = manifestJsonSchema() as {
      properties: Record<string, { description?: string; enum?: unknown }>;
    };
    expect(schema.properties.target?.enum).toEqual(['space', 'site', 'organization', 'all']);
    for (const key of ['target', 'contentSecurityPolicy', 'envs'])
      expect(schema.properties[key]?.description).toEqual(expect.any(String));
  });
});
