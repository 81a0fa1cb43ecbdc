import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, run, scaffold, startTestHost } from './helpers.js';

let host: Host;
let token = '';
let flags: string[] = [];
let work = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'platform-commands-'));
  ({ host, token } = await startTestHost());
  flags = ['--url', host.url, '--token', token];
});

afterAll(async () => {
  await host?.stop();
});

/** A web server that is not a host: every path answers `status` with an HTML page. */
async function notAHost(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' }).end('<html><body>Not here</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('host URL mistakes', () => {
  it('says a URL lacks its scheme, and tells a server that is not a host from a refused token', async () => {
    const env = cliEnv();
    const bare = await run(['trigger', 'space_view', '--url', '127.0.0.1:19500', '--token', 'x'], { env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(
      'error: --url "127.0.0.1:19500" has no scheme; use http://127.0.0.1:19500 (or https://127.0.0.1:19500).\n',
    );
    const fromEnv = await run(['whoami'], {
      env: cliEnv({ PLATFORM_URL: 'localhost:8080', PLATFORM_TOKEN: 'x' }),
    });
    expect(fromEnv.stderr).toMatch(
      /^error: PLATFORM_URL "localhost:8080" has no scheme; use http:\/\/localhost:8080/,
    );

    for (const status of [404, 401, 200]) {
      const other = await notAHost(status);
      try {
        const r = await run(['whoami', '--url', other.url, '--token', 'pat_x'], { env });
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
          `error: the server at ${other.url} (from --url) answered ${status} without the host's JSON: it is not a platform host. Check the URL and port (\`platform dev\` prints its host URL).\n`,
        );
      } finally {
        other.server.close();
      }
    }
    const refused = await run(['whoami', '--url', host.url, '--token', 'pat_wrong_token_000000'], { env });
    expect(refused.stderr).toMatch(
      /^error: the host at http:\/\/127\.0\.0\.1:\d+ refused the token from --token/,
    );
  });
});

describe('whoami, login, logout', () => {
  it('shows the host and where its token comes from; logout forgets the saved login', async () => {
    const env = cliEnv();
    const flagged = await run(['whoami', ...flags], { env });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stdout).toMatch(
      new RegExp(
        `^Operator of ${host.url} \\(from --url\\)\\n  token pat_cli_…0123 \\(from --token\\), accepted`,
      ),
    );
    expect(flagged.stdout).not.toContain(token);
    expect((await run(['login', ...flags], { env })).code).toBe(0);
    const saved = JSON.parse((await run(['whoami', '--json'], { env })).stdout);
    expect(saved).toMatchObject({
      url: host.url,
      token: 'pat_cli_…0123',
      tokenSource: expect.stringMatching(/config\.json$/),
    });
    const out = await run(['logout'], { env });
    expect(out.stdout).toMatch(/^Logged out; removed the login from .*config\.json\n$/);
    const after = await run(['whoami'], { env });
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/no host to talk to/);
    expect((await run(['logout'], { env })).stdout).toBe('Not logged in; nothing to remove.\n');
  });
});

describe('integrations, installations, uninstall, unpublish', () => {
  it('lists what is published and installed, uninstalls, and unpublishes once nothing is installed', async () => {
    const env = cliEnv();
    const dir = await scaffold('listed', env);
    expect((await run(['publish', ...flags], { cwd: dir, env })).code).toBe(0);
    const installed = await run(['install', '--space', 'space_l', '--json', ...flags], { cwd: dir, env });
    const installation = JSON.parse(installed.stdout) as { id: string };

    const integrations = await run(['integrations', 'list', ...flags], { env });
    expect(integrations.stdout).toMatch(/^NAME\s+VERSION\s+TITLE\s+SCOPES\s+PUBLISHED\n/);
    expect(integrations.stdout).toMatch(/^listed\s+1\s+Listed\s+space:content:read\s+\d{4}-/m);
    expect(integrations.stdout).toMatch(/^webhook\s/m);
    const installations = await run(['installations', 'list', '--space', 'space_l', ...flags], { env });
    expect(installations.stdout).toBe(
      `ID${' '.repeat(installation.id.length)}INTEGRATION  WHERE          STATUS\n${installation.id}  listed       space space_l  active\n`,
    );

    const busy = await run(['unpublish', ...flags], { cwd: dir, env });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(
      `Integration "listed" is installed 1 time(s) (${installation.id}); uninstall those first.\n`,
    );
    const builtIn = await run(['unpublish', 'webhook', ...flags], { env });
    expect(builtIn.stderr).toMatch(/"webhook" is built into the host/);

    const removed = await run(['uninstall', installation.id, ...flags], { env });
    expect(removed).toMatchObject({ code: 0, stdout: `Uninstalled ${installation.id}\n` });
    expect((await run(['installations', 'list', '--space', 'space_l', ...flags], { env })).stdout).toBe(
      'No installations.\n',
    );
    const unpublished = await run(['unpublish', ...flags], { cwd: dir, env });
    expect(unpublished).toMatchObject({ code: 0, stdout: 'Unpublished listed (every version)\n' });
    expect(await host.context.storage.integrations.getLatest('listed')).toBeNull();
    const again = await run(['unpublish', 'listed', ...flags], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Integration "listed"/);
  });
});

describe('webhooks public-key', () => {
  it("prints an ed25519 installation's public key alone on stdout; a platform one gets the host's 404 saying how", async () => {
    const env = cliEnv();
    const configuration = { url: 'https://hooks.example.com/in', space_content_updated: true };
    const install = async (extra: Record<string, unknown>) =>
      (
        await fetch(`${host.url}/v1/installations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            integration: 'webhook',
            space: 'space_pk',
            configuration: { ...configuration, ...extra },
          }),
        }).then((r) => r.json() as Promise<{ id: string }>)
      ).id;
    const ed = await install({ signature_scheme: 'ed25519' });
    const printed = await run(['webhooks', 'public-key', ed, ...flags], { env });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^whpk_[A-Za-z0-9+/]{43}=\n$/);
    expect(printed.stderr).toContain('signs webhook-signature v1a entries now');
    const json = await run(['webhooks', 'public-key', ed, '--json', ...flags], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      algorithm: 'ed25519',
      publicKey: printed.stdout.trim(),
      scheme: 'ed25519',
    });
    const rotated = await run(['webhooks', 'public-key', ed, '--rotate', ...flags], { env });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).not.toBe(printed.stdout);
    expect(rotated.stderr).toContain(`the previous key ${printed.stdout.trim()} also signs until`);
    const plain = await install({});
    const refused = await run(['webhooks', 'public-key', plain, ...flags], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('signature_scheme becomes ed25519');
  });
});

describe('events and completion', () => {
  it('prints the event catalogue and a sample payload', async () => {
    const env = cliEnv();
    const all = await run(['events'], { env });
    expect(all.stdout).toMatch(/^EVENT\s+PLACE\s+SCOPE\n/);
    expect(all.stdout).toMatch(/^space_content_updated\s+space\s+space:content:read$/m);
    expect(all.stdout).toMatch(/^page_feedback\s+site\s+site:views:read$/m);
    const one = await run(['events', 'page_feedback'], { env });
    expect(one.stdout).toMatch(/^page_feedback \(site event; needs the scope site:views:read\)\n/);
    const sample = JSON.parse(one.stdout.slice(one.stdout.indexOf('{')));
    expect(sample).toMatchObject({ type: 'page_feedback', feedback: { rating: 'good' } });
    const json = JSON.parse((await run(['events', '--json'], { env })).stdout);
    expect(json.events.map((e: { type: string }) => e.type)).toContain('space_gitsync_completed');
    const unknown = await run(['events', 'space_content_update'], { env });
    expect(unknown.code).toBe(2);
  });

  it('completes commands, subcommands and flags in bash; zsh reuses it', async () => {
    const env = cliEnv();
    const script = join(work, 'platform.bash');
    writeFileSync(script, (await run(['completion', 'bash'], { env })).stdout);
    const complete = (...words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$0"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _platform_completion; echo "\${COMPREPLY[*]}"`,
          script,
        ],
        { encoding: 'utf8' },
      ).trim();
    expect(complete('platform', 'deliv')).toBe('deliveries');
    expect(complete('platform', 'deliveries', '')).toBe('list show redeliver --help');
    expect(complete('platform', 'listen', '--forw')).toBe('--forward-to');
    expect(complete('platform', 'check', 'some/dir', '--j')).toBe('--json');
    expect(complete('platform', 'who')).toBe('whoami');
    const zsh = await run(['completion', 'zsh'], { env });
    expect(zsh.stdout).toMatch(/^autoload -U \+X bashcompinit && bashcompinit$/m);
    expect((await run(['completion', 'fish'], { env })).code).toBe(2);
  });
});
