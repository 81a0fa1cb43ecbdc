import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sign } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_OPTION } from '../src/delivery/host/young-generation.js';
import { ADMIN_TOKEN, buildWorkspace, readRepoFile } from './helpers.js';
import { LineCollector } from './log-lines.js';
import { emptyProject, PUBLISHED, packAll, sqlitePrebuildMirror } from './pack.js';
import { freeLoopbackPort } from './ports.js';

const run = promisify(execFile);

// What a user outside the repository does: `npm install` the packed tarballs of our packages (their
// third-party dependencies from the registry) into an empty project, then run each part from there.
describe('packed packages installed outside the repository', () => {
  let work: string;
  let project: string;
  let tarballs: string[] = [];
  const children: ChildProcess[] = [];

  /** Starts `npx <args>` in `cwd` (the project by default), stdout collected line by line. */
  const start = (args: string[], env: Record<string, string> = {}, cwd = project) => {
    const child = spawn('npx', ['--no-install', ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npx runs the command through a shell, all stopped at the end
    });
    children.push(child);
    const stderr = new LineCollector(child.stderr as NonNullable<ChildProcess['stderr']>);
    return { child, out: new LineCollector(child.stdout as NonNullable<ChildProcess['stdout']>), stderr };
  };

  beforeAll(async () => {
    buildWorkspace();
    work = await mkdtemp(join(tmpdir(), 'platform-pack-'));
    project = join(work, 'project');
    await mkdir(join(work, 'tgz'), { recursive: true });
    await mkdir(project);
    await emptyProject(project);
    tarballs = await packAll(join(work, 'tgz'));
    const mirror = await sqlitePrebuildMirror(work);
    try {
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
        cwd: project,
        env: { ...process.env, ...mirror.env },
        maxBuffer: 64 * 1024 * 1024,
      });
    } finally {
      await mirror.close();
    }
  }, 400_000);

  afterAll(async () => {
    for (const child of children) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('`npm run pack:packages` packs every published package (each non-private one of packages/ and integrations/)', async () => {
    const script = (JSON.parse(await readRepoFile('package.json')) as { scripts: Record<string, string> })
      .scripts['pack:packages'];
    const named = [...(script ?? '').matchAll(/-w (\S+)/g)].map((m) => m[1]);
    expect(new Set(named)).toEqual(new Set(PUBLISHED));
    expect(PUBLISHED).toContain('@platform/events');
  });

  it('`npx platform` is our CLI', async () => {
    const { stdout } = await run('npx', ['--no-install', 'platform', '--help'], { cwd: project });
    expect(stdout).toMatch(/Usage: platform/);
    expect(stdout).toMatch(/\bcheck\b/);
    expect(stdout).toMatch(/\bdev\b/);
  });

  it('`npx platform-host` starts the host; a receiver built on @platform/webhooks verifies a real delivery', async () => {
    const host = start(['platform-host'], {
      PORT: '0',
      PLATFORM_DATA_DIR: join(work, 'host-data'),
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
    });
    const started = await host.out.waitFor((l) => typeof l.json?.url === 'string', 60_000);
    const base = String(started.json?.url);
    // The bin's `env -S` line gave `node` the young generation's floor (src/delivery/host/young-generation.ts).
    const cmdline = await readFile(`/proc/${Number(started.json?.pid)}/cmdline`, 'utf8');
    expect(cmdline.split('\0')).toContain(YOUNG_GENERATION_OPTION);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    // The dashboard and the API reference page come with the installed packages.
    expect(await (await fetch(`${base}/api`)).text()).toContain('/api-reference/swagger-ui-bundle.js');
    expect((await fetch(`${base}/api-reference/swagger-ui-bundle.js`)).status).toBe(200);
    expect(await (await fetch(`${base}/`)).text()).toMatch(/<div id="app"/);

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    // The receiver of the README, as a user writes it in their project.
    await writeFile(
      join(project, 'receiver.mjs'),
      [
        "import { createServer } from 'node:http';",
        "import { createNodeWebhookListener } from '@platform/webhooks/node';",
        "const onEvent = (event) => console.log('verified', event.type, event.eventId);",
        'const server = createServer(createNodeWebhookListener({ secret: process.env.WEBHOOK_SECRET, onEvent }));',
        "server.listen(0, '127.0.0.1', () => console.log('port', server.address().port));",
        '',
      ].join('\n'),
    );
    // The secret exists once the installation does: install first with a placeholder URL, then point it.
    const installation = await api('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-1',
      configuration: { url: 'http://127.0.0.1:9/unused', space_content_updated: true },
    });
    const id = String(installation.id);
    const { secret } = (await api('GET', `/v1/installations/${id}/webhook-secret`)) as { secret: string };
    const receiver = start(['node', 'receiver.mjs'], { WEBHOOK_SECRET: secret });
    const portLine = await receiver.out.waitFor((l) => l.text.startsWith('port '));
    const url = `http://127.0.0.1:${portLine.text.slice(5)}/webhook`;
    await api('PATCH', `/v1/installations/${id}`, { configuration: { url, space_content_updated: true } });
    const { eventId } = (await api('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: 'space-1',
      revisionId: 'rev-1',
    })) as { eventId: string };
    await receiver.out.waitFor((l) => l.text === `verified space_content_updated ${eventId}`);
  }, 120_000);

  it("a subscriber installs @platform/webhooks alone, and the README's receiver (server.mjs) verifies a signed event", async () => {
    const receiverProject = join(work, 'receiver-project');
    await mkdir(receiverProject);
    await emptyProject(receiverProject);
    const webhooks = tarballs.find((t) => /platform-webhooks-[\d.]+\.tgz$/.test(t));
    expect(webhooks, tarballs.join(', ')).toBeDefined();
    // the README's "a receiver needs only this one": no other package of ours may be needed
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', webhooks as string], {
      cwd: receiverProject,
      maxBuffer: 16 * 1024 * 1024,
    });
    const readme = await readRepoFile('README.md');
    const snippet = /## Receive and verify webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toContain("listen(3000, '127.0.0.1')");
    const port = await freeLoopbackPort();
    await writeFile(
      join(receiverProject, 'server.mjs'),
      (snippet as string).replace('listen(3000', `listen(${port}`),
    );
    const secret = 'whsec_readme_receiver_test_secret_0123456789';
    const receiver = start(['node', 'server.mjs'], { WEBHOOK_SECRET: secret }, receiverProject);
    const body = JSON.stringify({
      type: 'space_content_updated',
      eventId: 'evt_readme_1',
      installationId: 'inst_1',
      spaceId: 'space-1',
      revisionId: 'rev-1',
    });
    let answer = 0;
    for (const deadline = Date.now() + 20_000; answer === 0 && Date.now() < deadline; ) {
      answer = await fetch(`http://127.0.0.1:${port}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-platform-signature': await sign(body, secret) },
        body,
      })
        .then((r) => r.status)
        .catch(() => new Promise<number>((r) => setTimeout(() => r(0), 200)));
    }
    expect(answer, `receiver: ${receiver.out.text()}${receiver.stderr.text()}`).toBe(200);
    await receiver.out.waitFor((l) => l.text === 'space_content_updated evt_readme_1');
  }, 200_000);

  it('`platform new` -> `check` -> `dev` run from the installed CLI', async () => {
    const env = { NO_COLOR: '1' };
    await run(
      'npx',
      [
        '--no-install',
        'platform',
        'new',
        'my-integration',
        '--yes',
        '--no-install',
        '--organization',
        'acme',
      ],
      { cwd: project, env: { ...process.env, ...env } },
    );
    const folder = join(project, 'my-integration');
    expect(await readFile(join(folder, 'platform-manifest.yaml'), 'utf8')).toMatch(/name: my-integration/);
    const check = await run('npx', ['--no-install', 'platform', 'check'], {
      cwd: folder,
      env: { ...process.env, ...env },
    });
    expect(`${check.stdout}${check.stderr}`).toMatch(/valid|ok|✓/i);
    const dev = start(['platform', 'dev', '--port', '0', '--no-watch'], env, folder);
    await dev.out.waitFor((l) => l.text.includes('Ready!'), 90_000);
  }, 150_000);
});
