// Builds the host as it was at a git revision, for an A/B of two builds in one run (ab.mjs `rev=REV`).
// The revision's packages/host/src is taken out of git into a temp folder and bundled with the same esbuild
// options as scripts/build.mjs into packages/host/dist/ab-<rev>/ (inside packages/host, so that its bare
// imports resolve the same node_modules and the same builds of the other workspace packages as the current
// host; git-ignored with the rest of dist/). Only the host differs between the two variants.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { distTargets } from '../../scripts/dist-targets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostDir = join(root, 'packages', 'host');

/**
 * Builds packages/host at `rev` (any git revision name) and returns the path of its main.js.
 *
 * @example
 *   const main = await buildHostAt('96a8bcd'); // packages/host/dist/ab-96a8bcd/main.js
 *   await spawnHost(env, [], main);
 */
export async function buildHostAt(rev) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  let commit;
  try {
    commit = git('rev-parse', '--short', `${rev}^{commit}`).trim();
  } catch {
    throw new Error(`rev=${rev}: not a revision of this repository (git rev-parse failed)`);
  }
  const outdir = join(hostDir, 'dist', `ab-${commit}`);
  if (existsSync(join(outdir, 'main.js'))) return join(outdir, 'main.js');
  const pkg = JSON.parse(git('show', `${commit}:packages/host/package.json`));
  const src = mkdtempSync(join(tmpdir(), `platform-ab-${commit}-`));
  try {
    execFileSync('sh', ['-c', `git archive ${commit} packages/host/src | tar -x -C "${src}"`], { cwd: root });
    const entryPoints = {};
    for (const target of distTargets(pkg)) {
      const base = target.slice('./dist/'.length, -'.js'.length);
      const file = ['ts', 'tsx']
        .map((ext) => join(src, 'packages', 'host', 'src', `${base}.${ext}`))
        .find(existsSync);
      if (!file) throw new Error(`rev=${rev}: ${target} has no source file src/${base}.ts at ${commit}`);
      entryPoints[base] = file;
    }
    await build({
      absWorkingDir: hostDir,
      entryPoints,
      outdir,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'es2022',
      sourcemap: true,
      jsx: 'automatic',
      jsxImportSource: '@platform/runtime',
      logLevel: 'warning',
    });
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
  return join(outdir, 'main.js');
}
