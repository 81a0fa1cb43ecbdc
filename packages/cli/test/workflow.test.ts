import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Host } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, linkScaffold, nodeTest, ROOT, run, start, startTestHost } from './helpers.js';

let work = '';
let dir = '';
let host: Host;
let token = '';
const env = cliEnv();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'platform-workflow-'));
  dir = join(work, 'hello-world');
  ({ host, token } = await startTestHost());
});

afterAll(async () => {
  await host?.stop();
});

describe('platform new -> check -> build -> dev -> publish', () => {
  it('new scaffolds an integration that passes its own test and `platform check`', async () => {
    const created = await run(['new', 'hello-world', '--yes', '--no-install', '--organization', 'acme'], {
      cwd: work,
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Created hello-world in hello-world/);
    for (const file of [
      'platform-manifest.yaml',
      'src/index.ts',
      'test/index.test.js',
      'tsconfig.json',
      'package.json',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const manifest = readFileSync(join(dir, 'platform-manifest.yaml'), 'utf8');
    expect(manifest).toMatch(/^name: hello-world$/m);
    expect(manifest).toMatch(/^organization: "acme"$/m);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const runtimeSpec: string = pkg.dependencies['@platform/runtime'];
    expect(runtimeSpec).toMatch(/^file:/);
    expect(realpathSync(resolve(dir, runtimeSpec.slice('file:'.length)))).toBe(
      realpathSync(join(ROOT, 'packages/runtime')),
    );

    linkScaffold(dir);
    const tested = await nodeTest(dir);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/# pass 3/);

    const checked = await run(['check'], { cwd: dir, env });
    expect(checked).toMatchObject({ code: 0, stdout: '✔ platform-manifest.yaml is valid\n' });

    const again = await run(['new', 'hello-world', '--yes', '--no-install'], { cwd: work, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/hello-world is not empty/);
  });

  it('build writes a minified bundle with only a default export and reports its size', async () => {
    const built = await run(['build', '--json'], { cwd: dir, env });
    expect(built.code, built.stderr).toBe(0);
    const out = JSON.parse(built.stdout);
    expect(out).toMatchObject({
      file: join('dist', 'index.js'),
      entry: join('src', 'index.ts'),
      exports: ['default'],
    });
    const code = readFileSync(join(dir, 'dist/index.js'), 'utf8');
    expect(out.bytes).toBe(Buffer.byteLength(code));
    expect(code.split('\n').length).toBeLessThan(10); // minified
    expect(code).not.toMatch(/from\s*["']@platform/); // self-contained
    const text = await run(['build'], { cwd: dir, env });
    expect(text.stdout).toMatch(
      /^Built hello-world from src\/index\.ts → dist\/index\.js \(\d+\.\d KiB\)\n$/,
    );
  });

  it('dev publishes, installs, reloads on save and streams the handler log lines', async () => {
    const dev = await start(['dev', '--port', '0'], { cwd: dir, env });
    try {
      const [, endpoint] = (await dev.waitFor(/public endpoint: (\S+)/, 30_000)) as [string, string];
      expect(dev.stdout()).toMatch(/Ready! hello-world \(.+\) installed in space space_dev: active/);
      expect(dev.stdout()).toMatch(/admin token:\s+\.platform\/admin-token/);

      const triggered = await run(['trigger', 'space_content_updated'], { cwd: dir, env });
      expect(triggered.code, triggered.stderr).toBe(0);
      expect(triggered.stdout).toMatch(/Triggered space_content_updated evt_\w+ in space space_dev/);
      await dev.waitFor(/info\s+hello-world: space space_dev is now at revision rev_\w+/);

      const source = join(dir, 'src/index.ts');
      writeFileSync(source, readFileSync(source, 'utf8').replace('is now at revision', 'moved to revision'));
      await dev.waitFor(/Reloaded after src\/index\.ts changed/);
      expect((await run(['trigger', 'space_content_updated'], { cwd: dir, env })).code).toBe(0);
      await dev.waitFor(/info\s+hello-world: space space_dev moved to revision rev_\w+/);

      const posted = await fetch(endpoint, { method: 'POST', body: '{"ping":1}' });
      expect(await posted.json()).toEqual({ received: true });
      await dev.waitFor(/info\s+hello-world: received 10 bytes/);

      const broken = readFileSync(source, 'utf8');
      // (A named export no longer breaks a reload: the bundle exports only the default.)
      writeFileSync(source, `${broken}\nexport const helper = ;\n`);
      await dev.waitFor(
        /Reload failed, the previous version keeps running:[\s\S]*could not bundle src\/index\.ts/,
      );
      writeFileSync(source, broken);
    } finally {
      expect(await dev.interrupt()).toBe(0);
    }
    expect(dev.stderr()).toMatch(/Stopped the local host/);
    expect(existsSync(join(dir, '.platform/dev.json'))).toBe(false);
  });

  it('publish sends the bundle and the secrets the manifest references to a real host', async () => {
    const manifest = join(dir, 'platform-manifest.yaml');
    writeFileSync(
      manifest,
      `${readFileSync(manifest, 'utf8')}secrets:\n  API_KEY: \${{ env.HELLO_API_KEY }}\n`,
    );
    const flags = ['--url', host.url, '--token', token];
    const missing = await run(['publish', ...flags], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the manifest secrets need HELLO_API_KEY/);

    writeFileSync(join(dir, '.env.production'), 'HELLO_API_KEY=sk_test_123456\n');
    const published = await run(['publish', '--env', 'production', '--json', ...flags], { cwd: dir, env });
    expect(published.code, published.stderr).toBe(0);
    const view = JSON.parse(published.stdout);
    expect(view).toMatchObject({ name: 'hello-world', version: '1' });
    // the scaffold's icon went with the bundle: the host serves the file's own bytes
    const icon = await fetch(view.iconUrl);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toBe(readFileSync(join(dir, 'assets/icon.svg'), 'utf8'));
    const second = await run(['publish', '--env', 'production', ...flags], { cwd: dir, env });
    expect(second.stdout).toMatch(/Published hello-world version 2 \([^)]*, 1 image\)/);
    const record = await host.context.storage.integrations.getLatest('hello-world');
    expect(record?.secrets).toEqual({ API_KEY: 'sk_test_123456' });

    const installed = await run(['install', '--space', 'space_pub', '--json', ...flags], { cwd: dir, env });
    expect(installed.code, installed.stderr).toBe(0);
    const installation = JSON.parse(installed.stdout);
    expect(installation).toMatchObject({ integration: 'hello-world', space: 'space_pub', status: 'active' });

    const tail = await start(
      ['tail', '--installation', installation.id, '--since', '1m', '--json', ...flags],
      { cwd: dir, env },
    );
    try {
      expect(
        (await run(['trigger', 'space_content_updated', '--space', 'space_pub', ...flags], { env })).code,
      ).toBe(0);
      const [line] = await tail.waitFor(/\{"id".*"eventType":"space_content_updated".*\}\n/);
      expect(JSON.parse(line).lines[0].message).toMatch(
        /^hello-world: space space_pub moved to revision rev_/,
      );
    } finally {
      await tail.interrupt();
    }
  });

  it('says clearly when the host is unreachable or the token is wrong', async () => {
    const down = await run(['trigger', 'space_view', '--url', 'http://127.0.0.1:9', '--token', 'x'], { env });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^error: cannot reach the host at http:\/\/127\.0\.0\.1:9 \(from --url\)\. Is it running\?/,
    );
    const wrong = await run(
      ['trigger', 'space_view', '--url', host.url, '--token', 'pat_wrong_token_000000'],
      { env },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^error: the host at http:\/\/127\.0\.0\.1:\d+ refused the token from --token/,
    );
    expect(wrong.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    const none = await run(['trigger', 'space_view'], { cwd: work, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no host to talk to: pass --url, set PLATFORM_URL/);
  });
});
