import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, run, scaffold, useTestHost } from './helpers.js';

let dir = '';
const env = cliEnv();
const t = useTestHost();

beforeAll(async () => {
  dir = await scaffold('scoped', env, ['--scopes', 'space:metadata:read']);
});

describe('handlers that never run', () => {
  it('check names the scope a handled event needs, and trigger says why nothing ran', async () => {
    const checked = await run(['check', '--json'], { cwd: dir, env });
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout).errors).toEqual([
      {
        path: 'scopes',
        line: expect.any(Number),
        column: 1,
        message:
          'the script handles `space_content_updated`, which needs the scope `space:content:read`; add `space:content:read` to `scopes`, or the host never sends it.',
      },
    ]);

    const published = await run(['publish', ...t.flags], { cwd: dir, env });
    expect(published.code, published.stderr).toBe(0);
    const installed = await run(['install', '--space', 'space_s', ...t.flags], { cwd: dir, env });
    expect(installed.code, installed.stderr).toBe(0);
    const triggered = await run(['trigger', 'space_content_updated', '--space', 'space_s', ...t.flags], {
      cwd: dir,
      env,
    });
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(triggered.stdout).toMatch(
      /reached no installation in space space_s:\n {4}scoped \(inst_[\w-]+\): its integration scoped lacks the scope `space:content:read`/,
    );
    const empty = await run(['trigger', 'space_content_updated', '--space', 'space_none', ...t.flags], {
      env,
    });
    expect(empty.stdout).toMatch(/reached no installation: nothing is installed in space space_none/);
  });

  it('check says "did you mean" for a misspelt handler name', async () => {
    const manifest = join(dir, 'platform-manifest.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('space:metadata:read', 'space:content:read'),
    );
    expect((await run(['check'], { cwd: dir, env })).code).toBe(0);
    const source = join(dir, 'src/index.ts');
    writeFileSync(
      source,
      readFileSync(source, 'utf8').replace('space_content_updated:', 'space_content_update:'),
    );
    const checked = await run(['check'], { cwd: dir, env });
    expect(checked.code).toBe(1);
    // reported where it is fixed: the handler's line in the source, not the manifest's `script:`
    const lines = readFileSync(source, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('space_content_update:')) + 1;
    const column = (lines[line - 1] ?? '').indexOf('space_content_update') + 1;
    expect(checked.stdout).toContain(
      `src/index.ts:${line}:${column} error: the script handles \`space_content_update\`, which is not an event type, so it never runs. Did you mean \`space_content_updated\`?`,
    );
  });
});
