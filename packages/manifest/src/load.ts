import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ManifestNotFoundError } from './errors.js';
import { type ManifestResult, type ParseOptions, parseManifest } from './parse.js';

/** File name of a manifest. */
export const MANIFEST_FILE = 'platform-manifest.yaml';

/**
 * Reads and validates `<dir>/platform-manifest.yaml`, including its files (synchronous).
 * Throws {@link ManifestNotFoundError} when the folder or the file does not exist; every problem
 * inside the file is returned in the result instead.
 *
 * @example
 * ```ts
 * const result = loadManifest('integrations/webhook', { firstParty: true });
 * if (!result.ok) throw new Error(formatIssues(result.errors, 'platform-manifest.yaml'));
 * ```
 */
export function loadManifest(dir: string, options: Omit<ParseOptions, 'dir'> = {}): ManifestResult {
  const isDir = (() => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  })();
  if (!isDir) throw new ManifestNotFoundError(dir, 'no_folder');
  const file = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ManifestNotFoundError(dir, 'no_file');
  }
  return parseManifest(text, { fileName: MANIFEST_FILE, ...options, dir });
}
