// The npm packages bench/device/pack.sh copies into the device bundle by their dependency closure: the
// production dependencies of the workspace packages the host and the benchmark load, plus what the
// benchmark itself imports (undici, pg), less what pack.sh carries its own way (better-sqlite3, miniflare,
// workerd) or never loads on the device (esbuild, sharp, the BullMQ reference); and the workspace packages
// it links. One source for pack.sh and for imports.test.mjs, which checks that the benchmark files the
// device runs import nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The workspace packages (packages/<name>) pack.sh carries built and links as @platform/<name>; their
 * production dependencies are the roots of the closure.
 */
export const LINKED_WORKSPACES = [
  'host',
  'events',
  'manifest',
  'api-client',
  'webhooks',
  'dashboard',
  'runtime',
];
/** What the benchmark files import themselves, besides node:* and @platform/*. */
const BENCH_IMPORTS = ['undici', 'pg'];
/** Carried by pack.sh in part (their loaded files only), so not walked. */
export const CARRIED_APART = ['better-sqlite3', 'miniflare', 'workerd'];
const SKIP = new Set([...CARRIED_APART, 'esbuild', 'sharp']);

/**
 * The closure's package names, sorted, from the repository at `root` (its node_modules installed).
 *
 * @example
 * const names = packedClosure('/work/main'); // ['@cspotcode/source-map-support', …, 'undici', 'zod', …]
 */
export function packedClosure(root) {
  const seen = new Set();
  const walk = (name) => {
    if (seen.has(name) || SKIP.has(name) || name.startsWith('@cloudflare/') || name.startsWith('@platform/'))
      return;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return;
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) walk(dep);
  };
  const deps = (file) => Object.keys(JSON.parse(readFileSync(join(root, file), 'utf8')).dependencies ?? {});
  for (const ws of LINKED_WORKSPACES) deps(`packages/${ws}/package.json`).forEach(walk);
  deps('integrations/webhook/package.json').forEach(walk);
  BENCH_IMPORTS.forEach(walk);
  // miniflare is imported at start-up (its JS only): what it requires, less workerd and sharp
  ['@cspotcode/source-map-support', 'ws', 'youch'].forEach(walk);
  walk('bindings'); // better-sqlite3 finds its addon with it (the addon itself is copied apart)
  return [...seen].sort();
}

// `node bench/device/closure.mjs` prints the closure, `--linked` the linked workspaces, one a line.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.includes('--linked') ? LINKED_WORKSPACES : packedClosure(process.cwd());
  console.log(names.join('\n'));
}
