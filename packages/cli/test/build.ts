import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let built = false;

/**
 * Builds every workspace dist with `scripts/build.mjs` (under a second): the `platform` bin loads
 * `@platform/host`, `@platform/runtime/testing` and the webhook integration from their dist.
 */
export async function buildCli(): Promise<string> {
  if (!built) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'pipe' });
    built = true;
  }
  return join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
}
