// Builds every workspace package: each `dist/X.js` named in a package's
// `exports` (default condition) or `bin` is bundled by esbuild from `src/X.ts`
// (or `src/X.tsx`). Dependencies stay external; workspace packages resolve to
// each other's dist at run time. A package may set "buildPlatform": "neutral"
// (code that must also run in workerd) — the default is "node". A package with
// "platformIntegration": "src/index.ts" also gets dist/integration.js: a self-contained bundle,
// built last by @platform/bundler (the bundler the CLI uses too, so both build integrations alike).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { distTargets } from './dist-targets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Expands the workspace globs of the root package.json into package folders. */
function workspaceDirs() {
  const dirs = [];
  for (const pattern of rootPkg.workspaces) {
    if (!pattern.endsWith('/*')) {
      dirs.push(join(root, pattern));
      continue;
    }
    const parent = join(root, pattern.slice(0, -2));
    if (!existsSync(parent)) continue;
    for (const name of readdirSafe(parent)) dirs.push(join(parent, name));
  }
  return dirs.filter((d) => existsSync(join(d, 'package.json')));
}

function readdirSafe(dir) {
  return existsSync(dir) ? readdirSync(dir) : [];
}

const started = performance.now();
let count = 0;
const integrations = [];
for (const dir of workspaceDirs()) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entryPoints = {};
  for (const target of distTargets(pkg)) {
    if (pkg.platformIntegration && target === './dist/integration.js') continue;
    const base = target.slice('./dist/'.length, -'.js'.length);
    const src = ['ts', 'tsx'].map((ext) => join(dir, 'src', `${base}.${ext}`)).find(existsSync);
    if (!src) throw new Error(`${pkg.name}: ${target} has no source file src/${base}.ts`);
    entryPoints[base] = src;
  }
  if (pkg.platformIntegration) integrations.push({ dir, entry: pkg.platformIntegration });
  if (Object.keys(entryPoints).length === 0) continue;
  await build({
    absWorkingDir: dir,
    entryPoints,
    outdir: join(dir, 'dist'),
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: pkg.buildPlatform ?? 'node',
    target: 'es2022',
    sourcemap: true,
    jsx: 'automatic',
    jsxImportSource: '@platform/runtime',
    logLevel: 'warning',
  });
  count += Object.keys(entryPoints).length;
}
// Integrations: one self-contained ESM bundle each (dependencies included) that the host stores and
// runs in workerd or in-process, built by @platform/bundler's dist (built above).
const bundler = await import(pathToFileURL(join(root, 'packages/bundler/dist/index.js')).href);
for (const { dir, entry } of integrations) {
  const { code, warnings } = await bundler.bundleIntegration(dir, { entry, mode: 'publish' });
  for (const warning of warnings) console.warn(`${dir}: ${warning}`);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'integration.js'), code);
  count++;
}
// The dashboard's browser bundle (Preact, esbuild) the host serves at `/`.
await (await import('../packages/dashboard/scripts/build-assets.mjs')).buildDashboardAssets();
console.log(`built ${count} entry points in ${Math.round(performance.now() - started)} ms`);
