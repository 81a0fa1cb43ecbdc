import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { publishedManifestText } from './envs.js';
import { parseManifest } from './parse.js';

const WITH_ENVS = `# the demo integration
name: demo
title: Demo
description: A demo integration
scopes: [space:content:read]
target: space
configurations:
  space:
    componentId: config
envs:
  staging:
    organization: acme-staging # staging org
    title: Demo (staging)
  broken:
    target: organization
`;

describe('parseManifest with an environment', () => {
  it('returns the variant of the environment and no `organization` warning when it sets one', () => {
    const base = parseManifest(WITH_ENVS);
    expect(base.ok).toBe(true);
    expect(base.warnings.map((w) => w.path)).toEqual(['organization']);
    const staging = parseManifest(WITH_ENVS, { env: 'staging' });
    expect(staging).toMatchObject({
      ok: true,
      warnings: [],
      manifest: { organization: 'acme-staging', title: 'Demo (staging)', target: 'space' },
    });
    expect(staging.ok && 'envs' in staging.manifest).toBe(false);
  });

  it('checks the variant with the rules and points at the line of the override', () => {
    const broken = parseManifest(WITH_ENVS, { env: 'broken' });
    const messages = broken.warnings.map((w) => `${w.line}:${w.column} ${w.path} ${w.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^9:5 configurations\.space .*`target: organization` installs only in/),
        expect.stringMatching(/^2:1 organization .*\(nor in `envs\.broken`\)/),
      ]),
    );
    // the file as a whole has no such warning: the rule only fires for that environment
    expect(parseManifest(WITH_ENVS).warnings.some((w) => w.path === 'configurations.space')).toBe(false);
  });

  it('refuses an environment `envs` does not declare, listing the declared ones', () => {
    const result = parseManifest(WITH_ENVS, { env: 'prod' });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toEqual([
      expect.objectContaining({
        path: 'envs',
        line: 10,
        column: 1,
        message: expect.stringMatching(
          /environment `prod` is not declared in `envs` \(declared: `staging`, `broken`\)/,
        ),
      }),
    ]);
    const none = parseManifest('name: a\ntitle: A\nscopes: []\n', { env: 'prod' });
    expect(!none.ok && none.errors[0]?.message).toMatch(/\(none declared\)/);
  });
});

describe('publishedManifestText', () => {
  it('applies the environment, drops `envs` and keeps comments', () => {
    const text = publishedManifestText(WITH_ENVS, { env: 'staging' });
    expect(text).toMatch(/^# the demo integration\n/);
    expect(text).toMatch(/# staging org/);
    const data = parse(text);
    expect(data).toMatchObject({ name: 'demo', title: 'Demo (staging)', organization: 'acme-staging' });
    expect(data.envs).toBeUndefined();
    expect(parseManifest(text)).toMatchObject({ ok: true, warnings: [] });
  });

  it('lets `organization` win over the environment and the file, and drops `envs` without one', () => {
    expect(parse(publishedManifestText(WITH_ENVS, { env: 'staging', organization: 'acme' }))).toMatchObject({
      organization: 'acme',
    });
    const plain = parse(publishedManifestText(WITH_ENVS, { organization: 'acme' }));
    expect(plain).toMatchObject({ organization: 'acme', title: 'Demo' });
    expect(plain.envs).toBeUndefined();
    expect(parse(publishedManifestText(WITH_ENVS)).organization).toBeUndefined();
  });

  it('throws on an undeclared environment, naming the declared ones', () => {
    expect(() => publishedManifestText(WITH_ENVS, { env: 'prod' })).toThrow(
      /environment `prod` is not declared in `envs` \(declared: `staging`, `broken`\)/,
    );
  });
});
