import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, linkScaffold, run, scaffold, startTestHost } from './helpers.js';

let host: Host;
let flags: string[] = [];
let dir = '';
const env = cliEnv();

/** The scaffolded manifest without `organization`, with two environments and a broken one. */
function withEnvs(manifest: string): string {
  return `${manifest.replace(/^organization: .*\n/m, '').replace(/^visibility: .*\n/m, '')}envs:
  staging:
    organization: acme-staging
    title: "Env Demo (staging)"
  production:
    organization: acme
    visibility: unlisted
  broken:
    icon: assets/missing.png
`;
}

beforeAll(async () => {
  let token = '';
  ({ host, token } = await startTestHost());
  flags = ['--url', host.url, '--token', token];
  dir = await scaffold('env-demo', env);
  linkScaffold(dir);
  const file = join(dir, 'platform-manifest.yaml');
  writeFileSync(file, withEnvs(readFileSync(file, 'utf8')));
});

afterAll(async () => {
  await host?.stop();
});

const latest = async () => (await host.context.storage.integrations.getLatest('env-demo'))?.manifest;

describe('platform check --env', () => {
  it('warns without an organization, checks the variant of an environment, refuses an undeclared one', async () => {
    const base = await run(['check', '--manifest-only'], { cwd: dir, env });
    expect(base.code, base.stdout + base.stderr).toBe(0);
    expect(base.stdout).toMatch(
      /platform-manifest\.yaml:\d+:\d+ warning: `organization` is not set: `platform publish` will need it/,
    );

    const staging = await run(['check', '--env', 'staging'], { cwd: dir, env });
    expect(staging.code, staging.stdout + staging.stderr).toBe(0);
    expect(staging.stdout).toBe('✔ platform-manifest.yaml is valid\n');

    // the broken environment's icon is only checked in its variant, at the line of the override
    const broken = await run(['check', '--manifest-only', '--env', 'broken'], { cwd: dir, env });
    expect(broken.code).toBe(1);
    const line = readFileSync(join(dir, 'platform-manifest.yaml'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('assets/missing.png'));
    expect(broken.stdout).toMatch(
      new RegExp(`platform-manifest\\.yaml:${line + 1}:11 error: icon \`assets/missing\\.png\` not found`),
    );

    const unknown = await run(['check', '--manifest-only', '--env', 'prod', '--json'], { cwd: dir, env });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).errors).toEqual([
      expect.objectContaining({
        path: 'envs',
        message: expect.stringMatching(
          /environment `prod` is not declared in `envs` \(declared: `staging`, `production`, `broken`\)/,
        ),
      }),
    ]);
  });
});

describe('platform publish --env / --organization', () => {
  it('refuses without an organization, naming the three ways, and publishes nothing', async () => {
    const r = await run(['publish', ...flags], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /publishing needs an organization and none is set: pass --organization <id>, set `organization` in `envs.<name>` of platform-manifest\.yaml and publish with --env <name>, or set `organization` in platform-manifest\.yaml\./,
    );
    expect(await latest()).toBeUndefined();
  });

  it('refuses an undeclared environment, listing the declared ones', async () => {
    const r = await run(['publish', '--env', 'prod', ...flags], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--env prod: environment `prod` is not declared in `envs` of platform-manifest\.yaml \(declared: `staging`, `production`, `broken`\)/,
    );
    expect(await latest()).toBeUndefined();
  });

  it('publishes the variant of the environment: its organization and keys, without `envs`', async () => {
    const r = await run(['publish', '--env', 'staging', '--json', ...flags], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: 'env-demo',
      version: '1',
      title: 'Env Demo (staging)',
    });
    const stored = await latest();
    expect(stored).toMatchObject({
      organization: 'acme-staging',
      title: 'Env Demo (staging)',
      visibility: 'private',
    });
    expect(stored).not.toHaveProperty('envs');

    const production = await run(['publish', '--env', 'production', ...flags], { cwd: dir, env });
    expect(production.code, production.stderr).toBe(0);
    expect(production.stdout).toMatch(
      /Published env-demo version 2 .* for organization acme \(env production\)/,
    );
    expect(await latest()).toMatchObject({ organization: 'acme', visibility: 'unlisted', title: 'Env Demo' });
  });

  it('lets --organization win over the environment and the manifest', async () => {
    const r = await run(['publish', '--env', 'staging', '--organization', 'other-org', ...flags], {
      cwd: dir,
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await latest()).toMatchObject({ organization: 'other-org', title: 'Env Demo (staging)' });
    const plain = await run(['publish', '--organization', 'acme', ...flags], { cwd: dir, env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(await latest()).toMatchObject({ organization: 'acme', title: 'Env Demo', visibility: 'private' });
  });
});
