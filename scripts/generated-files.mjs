// What the `gen:*` scripts share: import a package's TypeScript source bundled (zod included, so
// no prior build is needed), and write the generated files under the repository root.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Imports `entry` (a path under the root) bundled by esbuild.
 * @example const events = await importBundled('packages/events/src/index.ts');
 */
export function importBundled(entry) {
  return bundleAndImport({ entryPoints: [join(root, entry)] });
}

/**
 * Imports the module `contents` (JavaScript/TypeScript source), bundled by esbuild, its relative imports
 * resolved from `dir` (a folder under the root).
 * @example const m = await importBundledSource("export { element } from './block';", 'packages/api-client/src/contentkit/elements');
 */
export function importBundledSource(contents, dir) {
  return bundleAndImport({ stdin: { contents, resolveDir: join(root, dir), loader: 'ts' } });
}

async function bundleAndImport(input) {
  const scratch = mkdtempSync(join(tmpdir(), 'gen-'));
  try {
    const out = join(scratch, 'module.mjs');
    await build({
      ...input,
      outfile: out,
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'warning',
    });
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Writes `{ path: text }` under the root, creating folders, and says what it wrote.
 * @example writeGenerated({ 'docs/x.md': '# X\n' });
 */
export function writeGenerated(files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
