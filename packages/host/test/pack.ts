import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './helpers.js';

const run = promisify(execFile);

/**
 * The packages a user installs, and every package of ours they depend on: every workspace package under
 * packages/ and integrations/ that is not private (examples are), so a new package cannot be forgotten.
 */
export const PUBLISHED: readonly string[] = ['packages', 'integrations'].flatMap((folder) =>
  readdirSync(join(repoRoot, folder))
    .map((dir) => join(repoRoot, folder, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; private?: boolean })
    .filter((pkg) => !pkg.private)
    .map((pkg) => pkg.name),
);

/**
 * `npm pack`s every published workspace package into `dest` (dist must be built); returns the tarball paths.
 *
 * @example
 * const tarballs = await packAll('/tmp/x/tgz'); // ['/tmp/x/tgz/platform-host-0.1.0.tgz', ...]
 */
export async function packAll(dest: string): Promise<string[]> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', dest, ...PUBLISHED.flatMap((name) => ['-w', name])],
    { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout) as { filename: string }[];
  return packed.map((p) => join(dest, p.filename));
}

/**
 * A local mirror of better-sqlite3's prebuilt binary, made from the one this checkout compiled: the
 * install then downloads it (`npm_config_better_sqlite3_binary_host`, prebuild-install's documented
 * mirror setting) instead of compiling SQLite again, which takes 1–4 minutes on a busy 2-core machine.
 * The install scripts still run as a user's do. `env` is what to pass to `npm install`; `close`
 * stops the mirror and removes the copy prebuild-install keeps in npm's cache.
 */
export async function sqlitePrebuildMirror(workDir: string): Promise<{
  env: Record<string, string>;
  close(): Promise<void>;
}> {
  const moduleDir = join(repoRoot, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(await readFile(join(moduleDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const tarball = join(workDir, 'better-sqlite3-prebuild.tar.gz');
  await run('tar', ['-czf', tarball, '-C', moduleDir, 'build/Release/better_sqlite3.node']);
  const bytes = await readFile(tarball);
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith('.tar.gz')) res.writeHead(200, { 'content-type': 'application/gzip' }).end(bytes);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const url = `${host}/v${version}/${file}`;
  const { stdout: cache } = await run('npm', ['config', 'get', 'cache']);
  const cached = join(
    cache.trim(),
    '_prebuilds',
    `${createHash('sha512').update(url).digest('hex').slice(0, 6)}-${file}`,
  );
  return {
    env: { npm_config_better_sqlite3_binary_host: host },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(cached, { force: true });
    },
  };
}

/** Writes `package.json` of an empty ESM project in `dir`. */
export async function emptyProject(dir: string): Promise<void> {
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'try-platform', private: true, type: 'module' }, null, 2)}\n`,
  );
}
