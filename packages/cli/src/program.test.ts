import { fileURLToPath } from 'node:url';
import type { Issue } from '@platform/manifest';
import { describe, expect, it } from 'vitest';
import { runCheck } from './check/run-check.js';
import { scriptCheckStep } from './check/script-step.js';
import { CHECK_STEPS } from './commands/check.js';
import { CliError } from './errors.js';
import type { Io } from './io.js';
import { runCli } from './program.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function memoryIo(): Io & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    stdoutIsTTY: true,
    stderrIsTTY: true,
    env: {},
    cwd: ROOT,
  };
}

describe('runCli in process', () => {
  it('colors on a terminal and returns the exit code', async () => {
    const io = memoryIo();
    expect(await runCli(['node', 'platform', 'check', 'examples/manifests/invalid'], io)).toBe(1);
    expect(io.out.join('')).toContain('\u001b[31m');
  });

  it('maps usage errors to 2 with the message on stderr', async () => {
    const io = memoryIo();
    expect(await runCli(['node', 'platform', 'check', 'missing-folder'], io)).toBe(2);
    expect(io.err.join('')).toMatch(/^error: folder not found/);
  });

  it('checks the script after the manifest (the bundling seam is filled)', () => {
    expect(CHECK_STEPS).toEqual([scriptCheckStep]);
  });
});

describe('runCheck steps', () => {
  const dir = `${ROOT}examples/manifests/valid`;
  const issue: Issue = { path: 'script', line: 1, column: 1, message: 'boom', severity: 'error' };

  it('runs steps after a valid manifest and adds their issues', async () => {
    const seen: string[] = [];
    const report = await runCheck(dir, {
      steps: [
        async ({ manifest }) => {
          seen.push(manifest.name);
          return [{ ...issue, severity: 'warning' }];
        },
        async () => [issue],
        async () => {
          seen.push('never');
          return [];
        },
      ],
    });
    expect(seen).toEqual(['slack-notifier']);
    expect(report).toMatchObject({ ok: false, errors: [issue], warnings: [{ severity: 'warning' }] });
  });

  it('throws a usage CliError for a missing folder', async () => {
    await expect(runCheck(`${ROOT}nope`)).rejects.toMatchObject({ exitCode: 2 });
    await expect(runCheck(`${ROOT}nope`)).rejects.toBeInstanceOf(CliError);
  });
});
