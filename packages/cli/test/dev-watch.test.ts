import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, linkScaffold, run, scaffold, start } from './helpers.js';

let dir = '';
const env = cliEnv();

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    stdio: 'pipe',
  });
}

beforeAll(async () => {
  dir = await scaffold('watched', env);
  linkScaffold(dir);
  git('init', '-q');
  git('add', 'src', 'platform-manifest.yaml');
  git('commit', '-q', '-m', 'scaffold');
});

describe('platform dev never runs stale code', () => {
  it('reloads after a rename-save, then an in-place save, then a git checkout; each runs the file', async () => {
    const source = join(dir, 'src/index.ts');
    const original = readFileSync(source, 'utf8');
    const withStep = (step: string) => original.replace('is now at revision', `${step} at revision`);
    const dev = await start(['dev', '--port', '0'], { cwd: dir, env });
    const reloadCount = () => dev.stdout().match(/Reloaded after src\/index\.ts changed/g)?.length ?? 0;
    let reloads = 0;
    /** Waits for a reload after the last one seen (a save may produce more than one). */
    const reloaded = async () => {
      const deadline = Date.now() + 30_000;
      while (reloadCount() <= reloads) {
        if (Date.now() > deadline) throw new Error(`no reload after the save:\n${dev.stdout()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      reloads = reloadCount();
    };
    /** The log line of one triggered event. */
    const triggerOnce = async () => {
      const triggered = await run(['trigger', 'space_content_updated'], { cwd: dir, env });
      expect(triggered.code, triggered.stderr).toBe(0);
      const eventId = /evt_\w+/.exec(triggered.stdout)?.[0] ?? '';
      const [line] = await dev.waitFor(new RegExp(`space_content_updated ${eventId}[^\\n]*\\n[^\\n]*\\n`));
      return line;
    };
    /** Triggers until the handler's line matches (a reload in flight may still serve the old code). */
    const runs = async (text: RegExp) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const line = await triggerOnce();
        if (text.test(line)) return;
        if (Date.now() > deadline) throw new Error(`still running stale code: ${line}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    };
    try {
      await dev.waitFor(/public endpoint: \S+/, 30_000);
      await runs(/is now at revision/);

      // 1. save by rename (what editors, `sed -i` and `cp` over do): a new inode
      writeFileSync(`${source}.tmp`, withStep('STEP1'));
      renameSync(`${source}.tmp`, source);
      await reloaded();
      await runs(/STEP1 at revision/);

      // 2. then an in-place save of the same path: fs.watch no longer saw these
      writeFileSync(source, withStep('STEP2'));
      await reloaded();
      await runs(/STEP2 at revision/);

      // 3. then `git checkout` of the file
      git('checkout', '--', 'src/index.ts');
      await reloaded();
      await runs(/is now at revision/);
    } finally {
      expect(await dev.interrupt()).toBe(0);
    }
  }, 120_000);
});
