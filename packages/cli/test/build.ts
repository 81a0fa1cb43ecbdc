import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Builds dist/ of @platform/manifest and @platform/cli with the options of scripts/build.mjs, but
 * only these two packages, so this suite does not depend on the state of unrelated packages.
 */
export async function buildCli(): Promise<string> {
  for (const [pkg, entries] of [
    ['manifest', ['index']],
    ['cli', ['index', 'bin']],
  ] as const) {
    const dir = join(ROOT, 'packages', pkg);
    await build({
      absWorkingDir: dir,
      entryPoints: Object.fromEntries(entries.map((e) => [e, join(dir, 'src', `${e}.ts`)])),
      outdir: join(dir, 'dist'),
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'es2022',
      sourcemap: true,
      logLevel: 'warning',
    });
  }
  return join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
}
