import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, run, scaffold } from './helpers.js';

/** Renamed scopes through `platform check` (docs/contracts.md "Scopes"). */

let dir = '';
const env = cliEnv();

beforeAll(async () => {
  dir = await scaffold('renamed', env);
  const manifest = join(dir, 'platform-manifest.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('space:content:read', 'space:views:read'));
  const source = join(dir, 'src/index.ts');
  writeFileSync(
    source,
    readFileSync(source, 'utf8').replace(
      /space_content_updated: async \(event, context\) => \{\n.*\n {4}\},/,
      'site_view: async (event, context) => {\n      context.logger.info(event.url);\n    },',
    ),
  );
});

describe('platform check with a renamed scope', () => {
  it('warns with the new name at the line of the old one, and checks the script against the new name', async () => {
    const checked = await run(['check'], { cwd: dir, env });
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const line = readFileSync(join(dir, 'platform-manifest.yaml'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('space:views:read'));
    expect(checked.stdout).toContain(
      `platform-manifest.yaml:${line + 1}:5 warning: \`space:views:read\` is now \`site:views:read\`; rename it`,
    );
    // The script handles `site_view`, which needs `site:views:read`: the renamed scope grants it.
    expect(checked.stdout).not.toMatch(/needs the scope/);
    const json = JSON.parse((await run(['check', '--json'], { cwd: dir, env })).stdout) as {
      ok: boolean;
      warnings: Array<{ path: string; message: string }>;
    };
    expect(json.ok).toBe(true);
    expect(json.warnings).toContainEqual(
      expect.objectContaining({
        path: 'scopes[0]',
        message: '`space:views:read` is now `site:views:read`; rename it',
      }),
    );
  });
});
