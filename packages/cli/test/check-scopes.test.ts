import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, run, scaffold } from './helpers.js';

/** Renamed scopes through `platform check` (docs/contracts.md "Scopes"). */

let dir = '';
const env = cliEnv();

/** Replaces `from` by `to` in a file of a scaffolded integration. */
function rewrite(file: string, from: string | RegExp, to: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
}

beforeAll(async () => {
  dir = await scaffold('renamed', env);
  rewrite(join(dir, 'platform-manifest.yaml'), 'space:content:read', 'space:views:read');
  rewrite(
    join(dir, 'src/index.ts'),
    /space_content_updated: async \(event, context\) => \{\n.*\n {4}\},/,
    'site_view: async (event, context) => {\n      context.logger.info(event.url);\n    },',
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

describe('platform check with fetch_published_script', () => {
  it('names the missing internal scope and the fix, then passes with it and --first-party', async () => {
    const hooked = await scaffold('hooked', env);
    rewrite(
      join(hooked, 'src/index.ts'),
      'export default createIntegration({',
      "export default createIntegration({\n  fetch_published_script: async () => new Response('1', { headers: { 'content-type': 'application/javascript' } }),",
    );
    const checked = await run(['check'], { cwd: hooked, env });
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(
      /platform-manifest\.yaml:\d+:1 error: the script handles `fetch_published_script`, which needs the scope `site:script:inject`; add `site:script:inject` to `scopes`, or the host never sends it\. `site:script:inject` is internal: only first-party integrations get it \(`platform check --first-party`/,
    );
    rewrite(
      join(hooked, 'platform-manifest.yaml'),
      '  - space:content:read',
      '  - space:content:read\n  - space:script:inject',
    );
    // The old name of the scope, renamed with a warning; the manifest then needs --first-party.
    const plain = await run(['check'], { cwd: hooked, env });
    expect(plain.stdout).toMatch(/`site:script:inject` is an internal scope/);
    const granted = await run(['check', '--first-party'], { cwd: hooked, env });
    expect(granted.stdout).toContain('warning: `space:script:inject` is now `site:script:inject`; rename it');
    expect(granted.code, granted.stdout).toBe(0);
  });
});
