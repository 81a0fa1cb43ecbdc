import { describe, expect, it } from 'vitest';
import { manifestForEnv } from './envs.js';
import { manifestJsonSchema } from './json-schema.js';
import { parseManifest } from './parse.js';
import { cspDirectives } from './targets.js';
import { BASE } from './test-fixtures.js';

function issues(extra: string) {
  const result = parseManifest(BASE + extra);
  return result.ok ? result.warnings : [...result.errors, ...result.warnings];
}

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
    expect(issues('target: spaces\n')).toEqual([
      expect.objectContaining({
        path: 'target',
        line: 7,
        column: 9,
        message: expect.stringMatching(/did you mean `space`/i),
      }),
    ]);
    expect(issues('contentSecurityPolicy:\n  scrpt-src: https://a.example\n')).toEqual([
      expect.objectContaining({
        line: 8,
        message: expect.stringMatching(/scrpt-src.*did you mean `script-src`/is),
      }),
    ]);
    expect(
      issues('blocks:\n  - id: x\n    title: X\n    description: d\n    urlUnfurl: [github.com/**]\n'),
    ).toEqual([
      expect.objectContaining({
        path: 'blocks[0].urlUnfurl[0]',
        line: 11,
        message: expect.stringMatching(/http\(s\) URL prefix/),
      }),
    ]);
    expect(
      issues('blocks:\n  - id: x\n    title: X\n    description: d\n    markdown: {codeblock: mermaid}\n'),
    ).toEqual([expect.objectContaining({ path: 'blocks[0].markdown.body', line: 11 })]);
    expect(issues('envs:\n  Staging:\n    organization: x\n')).toEqual([
      expect.objectContaining({ line: 8, message: expect.stringMatching(/environment names use lowercase/) }),
    ]);
    expect(issues('envs:\n  staging:\n    organizaton: x\n')).toEqual([
      expect.objectContaining({ line: 9, message: expect.stringMatching(/did you mean `organization`/i) }),
    ]);
  });

  it('asks a configuration for properties or a component, and warns about places the target never shows', () => {
    expect(issues('configurations:\n  account:\n    required: []\n')).toEqual([
      expect.objectContaining({
        path: 'configurations.account',
        severity: 'error',
        message: expect.stringMatching(/`properties`.*`componentId`/),
      }),
    ]);
    expect(issues('target: space\nconfigurations:\n  site:\n    componentId: site-config\n')).toEqual([
      expect.objectContaining({
        path: 'configurations.site',
        severity: 'warning',
        message: expect.stringMatching(/`target: space` installs only in `account` and `space`/),
      }),
    ]);
    // A site installation uses `space` settings when there are no `site` ones (settingsPlace).
    const spaceOnly = 'target: site\nconfigurations:\n  space:\n    componentId: config\n';
    expect(issues(spaceOnly)).toEqual([]);
    expect(issues(`${spaceOnly}  site:\n    componentId: config\n`)).toEqual([
      expect.objectContaining({ path: 'configurations.space', severity: 'warning' }),
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
