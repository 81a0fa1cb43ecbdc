import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/program.js';
import { buildCli, ROOT } from './build.js';
import { run as runProcessCli } from './helpers.js';

beforeAll(async () => {
  await buildCli();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as a process, with the environment's colour settings removed. */
function run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env };
  return runProcessCli(args, { ...(options.cwd ? { cwd: options.cwd } : {}), env });
}

const LINE = /^examples\/manifests\/invalid\/platform-manifest\.yaml:\d+:\d+ (error|warning): \S.*$/;

function tempManifest(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-check-'));
  writeFileSync(join(dir, 'platform-manifest.yaml'), text);
  return dir;
}

const INTERNAL = `name: bundled
title: Bundled
description: d
organization: platform
visibility: private
scopes: [site:script:inject]
`;

describe('platform check', () => {
  it('exits 0 on the valid example (manifest, bundle and boot in workerd)', async () => {
    const r = await run(['check', 'examples/manifests/valid']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('examples/manifests/valid/platform-manifest.yaml is valid');
  });

  it('checks the current folder by default', async () => {
    const r = await run(['check', '--manifest-only'], { cwd: join(ROOT, 'examples/manifests/valid') });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ platform-manifest.yaml is valid\n');
  });

  it('exits 1 with compiler-style lines and a summary on the invalid example', async () => {
    const r = await run(['check', 'examples/manifests/invalid']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const summary = lines.pop();
    expect(summary).toMatch(/^✖ \d+ errors?(, \d+ warnings?)?$/);
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(line).toMatch(LINE);
    expect(lines).toContain(
      'examples/manifests/invalid/platform-manifest.yaml:6:13 error: `visibility` must be one of `private`, `unlisted`, `public`, got `secret` (a string).',
    );
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('prints exactly {ok, errors, warnings} with --json', async () => {
    const r = await run(['check', 'examples/manifests/invalid', '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['ok', 'errors', 'warnings']);
    expect(out.ok).toBe(false);
    expect(out.errors.length).toBeGreaterThanOrEqual(10);
    for (const e of [...out.errors, ...out.warnings]) {
      expect(Object.keys(e)).toEqual(['path', 'line', 'column', 'message']);
    }
    expect(out.errors).toContainEqual({
      path: 'visibility',
      line: 6,
      column: 13,
      message: '`visibility` must be one of `private`, `unlisted`, `public`, got `secret` (a string).',
    });
    const valid = JSON.parse(
      (await run(['check', 'examples/manifests/valid', '--json', '--manifest-only'])).stdout,
    );
    expect(valid).toEqual({ ok: true, errors: [], warnings: [] });
    // The full check bundles the script and finds a block without a component.
    const dir = mkdtempSync(join(tmpdir(), 'platform-check-'));
    cpSync(join(ROOT, 'examples/manifests/valid'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'index.ts'),
      "import { createIntegration } from '@platform/runtime';\nexport default createIntegration({ events: {} });\n",
    );
    const full = await run(['check', dir, '--json']);
    expect(full.code).toBe(1);
    expect(JSON.parse(full.stdout).errors).toEqual([
      {
        path: 'blocks[0].id',
        line: 21,
        column: 1,
        message:
          'block `slack-message` has no component with componentId `slack-message` in the script (components: none).',
      },
    ]);
  });

  it('allows internal scopes only with --first-party', async () => {
    const dir = tempManifest(INTERNAL);
    const plain = await run(['check', dir]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/internal scope/);
    expect((await run(['check', dir, '--first-party'])).code).toBe(0);
  });

  it('exits 2 on usage errors with a message', async () => {
    const [flag, folder, file] = await Promise.all([
      run(['check', '--bogus']),
      run(['check', 'no/such/folder']),
      run(['check', 'packages']),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option '--bogus'/);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/folder not found/);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/no platform-manifest\.yaml/);
    expect((await run(['nope'])).code).toBe(2);
  });

  it('colors on request only and honours NO_COLOR', async () => {
    const forced = await run(['check', 'examples/manifests/invalid'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[31merror\u001b[39m');
    const off = await run(['check', 'examples/manifests/invalid'], {
      env: { FORCE_COLOR: '1', NO_COLOR: '1' },
    });
    expect(off.stdout).not.toContain('\u001b[');
  });
});

describe('platform manifest schema', () => {
  it('prints the JSON Schema, identical to the committed file', async () => {
    const r = await run(['manifest', 'schema']);
    expect(r.code).toBe(0);
    const committed = JSON.parse(readFileSync(join(ROOT, 'packages/manifest/manifest.schema.json'), 'utf8'));
    expect(JSON.parse(r.stdout)).toEqual(committed);
  });
});

describe('help and version', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8'));
    const r = await run(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
    // the committed bin shim npm links on a fresh clone runs the same program
    const shim = spawnSync(process.execPath, [join(ROOT, 'packages/cli/bin/platform.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(shim.stdout).toBe(`${version}\n`);
  });

  it('shows help with examples for every command', async () => {
    const root = await run(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/Usage: platform/);
    expect(root.stdout).toMatch(/check \[options\] \[dir\]/);
    const commands = [
      ['check', '--help'],
      ['manifest', '--help'],
      ['manifest', 'schema', '--help'],
      ...['new', 'build', 'dev', 'publish', 'install', 'configure', 'trigger', 'listen', 'tail', 'login'].map(
        (c) => [c, '--help'],
      ),
      ['deliveries', '--help'],
      ['deliveries', 'list', '--help'],
      ['deliveries', 'show', '--help'],
      ['deliveries', 'redeliver', '--help'],
      ...['whoami', 'logout', 'uninstall', 'unpublish', 'events', 'completion'].map((c) => [c, '--help']),
      ['integrations', 'list', '--help'],
      ['installations', 'list', '--help'],
      ...[[], ['create'], ['list'], ['revoke']].map((sub) => ['tokens', ...sub, '--help']),
      ...[[], ['open'], ['revoke']].map((sub) => ['portal', ...sub, '--help']),
      ['webhooks', '--help'],
      ['webhooks', 'public-key', '--help'],
    ];
    // In process (same program as the bin, without 17 process start-ups).
    for (const args of commands) {
      const out: string[] = [];
      const io = {
        stdout: (t: string) => out.push(t),
        stderr: () => {},
        stdoutIsTTY: false,
        stderrIsTTY: false,
        env: {},
        cwd: ROOT,
      };
      expect(await runCli(['node', 'platform', ...args], io), args.join(' ')).toBe(0);
      expect(out.join(''), args.join(' ')).toMatch(/Examples:\n {2}\$ platform /);
    }
    const check = await run(['check', '--help']);
    expect(check.stdout).toMatch(/--json/);
    expect(check.stdout).toMatch(/--first-party/);
  });
});
