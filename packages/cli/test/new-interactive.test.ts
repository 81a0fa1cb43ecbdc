import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli } from './build.js';
import { cliEnv, run } from './helpers.js';

/** Terminal output without escape sequences and whitespace. */
const flat = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences are the point
  text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g, '').replace(/\s+/g, '');

/** `platform new` on a pseudo-terminal (util-linux `script`), fed keystrokes as a person types them. */
async function onTerminal(args: string[], cwd: string) {
  const bin = await buildCli();
  // A pseudo-terminal without a size has 0 columns: the prompts would wrap every character.
  const command = `stty cols 120 rows 40; exec ${[process.execPath, bin, ...args].map((a) => `'${a}'`).join(' ')}`;
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { ...cliEnv(), TERM: 'xterm', COLUMNS: '120', LINES: '40' },
  });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
  });
  const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  let seen = 0;
  return {
    /**
     * Waits until `text` appears after what earlier waits consumed, comparing without escape
     * sequences and whitespace (the prompt library moves the cursor between words).
     */
    async waitFor(text: string, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      const wanted = flat(text);
      for (;;) {
        const at = flat(screen).indexOf(wanted, seen);
        if (at >= 0) {
          seen = at + wanted.length;
          return;
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${text}; screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    type: (keys: string) => child.stdin.write(keys),
    closed,
    screen: () => screen,
  };
}

describe('platform new on a terminal', () => {
  it('shows defaults as placeholders, refuses an empty organization, derives the name as a slug', async () => {
    const work = mkdtempSync(join(tmpdir(), 'platform-new-tty-'));
    const term = await onTerminal(['new', 'Hello_World', '--no-install'], work);
    await term.waitFor('Name (unique slug)');
    await term.waitFor('hello-world'); // the placeholder
    term.type('\r');
    await term.waitFor('Title');
    term.type('My Title\r'); // typing replaces the placeholder "Hello World"
    await term.waitFor('Description');
    term.type('\r');
    await term.waitFor('Organization (id or subdomain)');
    term.type('\r');
    await term.waitFor('the organization is required');
    term.type('acme\r');
    await term.waitFor('Scopes');
    term.type('\r');
    await term.waitFor('Visibility');
    term.type('\r');
    expect(await term.closed, term.screen()).toBe(0);
    const manifest = readFileSync(join(work, 'Hello_World', 'platform-manifest.yaml'), 'utf8');
    expect(manifest).toMatch(/^name: hello-world$/m);
    expect(manifest).toMatch(/^title: "My Title"$/m);
    expect(manifest).toMatch(/^description: "My Title integration\."$/m);
    expect(manifest).toMatch(/^organization: "acme"$/m);
  }, 60_000);

  it('with --yes, names the integration after the folder as a slug', async () => {
    const work = mkdtempSync(join(tmpdir(), 'platform-new-yes-'));
    const created = await run(['new', 'Hello_World', '--yes', '--no-install'], { cwd: work, env: cliEnv() });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created hello-world in Hello_World/);
    expect(readFileSync(join(work, 'Hello_World', 'platform-manifest.yaml'), 'utf8')).toMatch(
      /^name: hello-world$/m,
    );
  });
});
