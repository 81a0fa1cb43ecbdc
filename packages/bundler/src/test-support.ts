// What the bundler's tests share. Not part of the package's API (no entry point exports it).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A new folder under the system's temporary folder (its name starting with `prefix`) holding `files`
 * (path relative to the folder → content), sub-folders created; returns its path.
 *
 * @example
 * const dir = tempFolder('platform-bundler-', { 'src/index.ts': 'export default {};' });
 */
export function tempFolder(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
