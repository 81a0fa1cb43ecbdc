import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchHostEnv } from './backend.mjs';
import { npmStartNodeArgs, spawnHost } from './host-process.mjs';

const cmdline = async (pid) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);

// The benchmark measures the host as operators run it: `npm start`'s `node` options first (needs `npm run build`).
describe('bench: the host process', () => {
  let dir;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'platform-bench-host-process-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads `npm start`’s node options from the root package.json', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    const options = npmStartNodeArgs();
    expect(options.length).toBeGreaterThan(0);
    expect(pkg.scripts.start).toBe(`exec node ${options.join(' ')} packages/host/dist/main.js`);
  });

  it('gives a host build npm start’s options and then its own; another server only its own', async () => {
    const host = await spawnHost({ PLATFORM_DATA_DIR: dir, ...benchHostEnv({}) }, [
      '--max-old-space-size=512',
    ]);
    try {
      const args = await cmdline(host.pid);
      expect(args.slice(1, -1)).toEqual([...npmStartNodeArgs(), '--max-old-space-size=512']);
      expect(args.at(-1)).toMatch(/packages\/host\/dist\/main\.js$/);
    } finally {
      await host.stop();
    }

    const other = join(dir, 'server.mjs');
    await writeFile(
      other,
      "import { createServer } from 'node:http';\ncreateServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');\nprocess.on('SIGTERM', () => process.exit(0));\n",
    );
    const server = await spawnHost({}, ['--max-old-space-size=512'], other);
    try {
      expect((await cmdline(server.pid)).slice(1)).toEqual(['--max-old-space-size=512', other]);
    } finally {
      await server.stop();
    }
  });
});
