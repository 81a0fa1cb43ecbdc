import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, type Running, run, scaffold, start } from './helpers.js';

let dir = '';
let throwLine = 0;
const env = cliEnv();

beforeAll(async () => {
  dir = await scaffold('thrower', env);
  const source = join(dir, 'src/index.ts');
  const text = readFileSync(source, 'utf8').replace(
    '      context.logger.info(`thrower: space',
    "      if (event.spaceId) throw new Error('boom in ' + event.spaceId);\n      context.logger.info(`thrower: space",
  );
  writeFileSync(source, text);
  throwLine = text.split('\n').findIndex((l) => l.includes('boom in')) + 1;
});

/** The output of `platform tail --json` until `pattern` shows. */
async function tailUntil(pattern: RegExp): Promise<string> {
  const tail: Running = await start(['tail', '--since', '5m', '--json'], { cwd: dir, env });
  try {
    await tail.waitFor(pattern);
    return tail.stdout();
  } finally {
    await tail.interrupt();
  }
}

describe('a failing handler in platform dev', () => {
  it('shows the trace at src/index.ts once, then one line per retry decision; tail too', async () => {
    const dev = await start(['dev', '--port', '0'], { cwd: dir, env });
    try {
      await dev.waitFor(/public endpoint: \S+/, 30_000);
      expect((await run(['trigger', 'space_content_updated'], { cwd: dir, env })).code).toBe(0);
      await dev.waitFor(/gave up after 4 attempts/, 30_000);
      const out = dev.stdout();
      expect(out).toContain(`at space_content_updated (src/index.ts:${throwLine}:`);
      expect(out).not.toMatch(/integration\.js:\d+/);
      expect(out.match(/at space_content_updated \(/g)).toHaveLength(1);
      expect(
        out.match(/boom in space_dev \(at src\/index\.ts:\d+:\d+; full trace in attempt 1\)/g),
      ).toHaveLength(3);
      expect(out).toMatch(/warn {2}attempt 1 failed; retrying in \d+(\.\d)? s \(attempt 2\)/);
      expect(out).toMatch(/warn {2}attempt 3 failed; retrying in \d+(\.\d)? s \(attempt 4\)\n/);

      const tailed = await tailUntil(/gave up after 4 attempts/);
      expect(tailed).toContain(`src/index.ts:${throwLine}:`);
      expect(tailed).not.toMatch(/integration\.js:\d+/);

      // deliveries in a dev folder: the dev installation is no webhook
      const none = await run(['deliveries', 'list'], { cwd: dir, env });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(
        /^error: no webhook installation in space space_dev on http:\/\/127\.0\.0\.1:\d+ \(the installation of `platform dev`, inst_[\w-]+, is of thrower, which has no deliveries\); create one with `platform listen --forward-to <url>` or pass --installation <id>\.\n$/,
      );
      const hook = ['install', '--integration', 'webhook', '--space', 'space_dev', '--json'];
      const first = await run(
        [...hook, '--set', 'url=http://127.0.0.1:9/a', '--set', 'space_content_updated=true'],
        {
          cwd: dir,
          env,
        },
      );
      expect(first.code, first.stderr).toBe(0);
      const firstId = JSON.parse(first.stdout).id as string;
      const one = await run(['deliveries', 'list'], { cwd: dir, env });
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toBe(
        `Using webhook installation ${firstId} in space space_dev (http://127.0.0.1:9/a)\n`,
      );
      expect(one.stdout).toBe('No deliveries.\n');
      const second = await run(
        [...hook, '--set', 'url=http://127.0.0.1:9/b', '--set', 'space_content_updated=true'],
        {
          cwd: dir,
          env,
        },
      );
      const secondId = JSON.parse(second.stdout).id as string;
      const two = await run(['deliveries', 'list'], { cwd: dir, env });
      expect(two.code).toBe(2);
      expect(two.stderr).toContain(
        '2 webhook installations in space space_dev; pass --installation with one of:\n',
      );
      expect(two.stderr).toContain(`  ${firstId}  space space_dev -> http://127.0.0.1:9/a\n`);
      expect(two.stderr).toContain(`  ${secondId}  space space_dev -> http://127.0.0.1:9/b`);
    } finally {
      expect(await dev.interrupt()).toBe(0);
    }
  }, 120_000);
});
