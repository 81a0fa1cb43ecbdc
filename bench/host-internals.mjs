// Helpers of the bench scripts that measure parts of the host that are not exports of @platform/host.
import { build } from 'esbuild';

/**
 * Bundles `contents` (a module that re-exports files of packages/host/src, resolved from there) to
 * node_modules/.cache/bench/`name`.mjs, so that its imports resolve the repository's packages, and
 * imports it.
 *
 * @example
 * const { openStorage } = await importHostInternals('storage', "export { openStorage } from './storage/index.ts';");
 */
export async function importHostInternals(name, contents) {
  const out = new URL(`../node_modules/.cache/bench/${name}.mjs`, import.meta.url).pathname;
  await build({
    stdin: { contents, resolveDir: new URL('../packages/host/src', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: out,
    logLevel: 'warning',
  });
  return import(out);
}

/**
 * The value of `--name=value` on the command line, or `fallback`.
 *
 * @example
 * const claims = Number(arg('claims', '200'));
 */
export const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
