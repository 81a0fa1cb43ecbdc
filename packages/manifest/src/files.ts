import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { checkAsset, manifestAssets } from './assets.js';
import { isRecord } from './data.js';
import type { PathSegments, PendingIssue } from './issues.js';

type Report = (path: PathSegments, message: string, severity?: 'error' | 'warning') => void;

function inside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Resolves a manifest-relative path to an existing file inside `dir`, or reports why it cannot. */
function resolveFile(dir: string, path: PathSegments, value: string, what: string, report: Report) {
  if (isAbsolute(value)) {
    report(path, `${what} \`${value}\` must be a path relative to the manifest folder, not an absolute path`);
    return undefined;
  }
  const file = resolve(dir, value);
  if (!inside(resolve(dir), file)) {
    report(path, `${what} \`${value}\` points outside the manifest folder; keep assets next to the manifest`);
    return undefined;
  }
  try {
    if (!statSync(file).isFile()) {
      report(path, `${what} \`${value}\` is not a file`);
      return undefined;
    }
    if (!inside(realpathSync(dir), realpathSync(file))) {
      report(
        path,
        `${what} \`${value}\` links outside the manifest folder; keep assets next to the manifest`,
      );
      return undefined;
    }
  } catch {
    report(path, `${what} \`${value}\` not found next to the manifest; add the file or fix the path`);
    return undefined;
  }
  return file;
}

/** Checks `icon`, `previewImages` and `script` against the files in `dir`. */
export function checkFiles(data: unknown, dir: string): PendingIssue[] {
  const out: PendingIssue[] = [];
  const report: Report = (path, message, severity = 'error') =>
    out.push({ path, anchor: 'value', message, severity });
  if (!isRecord(data)) return out;
  if (typeof data.script === 'string' && data.script !== '') {
    resolveFile(dir, ['script'], data.script, 'script', report);
  }
  if (typeof data.icon === 'string' && data.icon !== '') {
    const file = resolveFile(dir, ['icon'], data.icon, 'icon', report);
    if (file !== undefined) {
      const checked = checkAsset('icon', `icon \`${data.icon}\``, readFileSync(file));
      if ('error' in checked) report(['icon'], checked.error);
    }
  }
  if (Array.isArray(data.previewImages)) {
    data.previewImages.forEach((value, i) => {
      if (typeof value !== 'string' || value === '') return;
      const path = ['previewImages', i];
      const file = resolveFile(dir, path, value, 'preview image', report);
      if (file === undefined) return;
      const checked = checkAsset('preview', `preview image \`${value}\``, readFileSync(file));
      if ('error' in checked) report(path, checked.error);
      else if (checked.warning) report(path, checked.warning, 'warning');
    });
  }
  return out;
}

/**
 * Reads the image files a manifest names (`icon`, then `previewImages`) from `dir`, base64-encoded
 * by the path written in the manifest: the `assets` of a publish. Check the manifest with its folder
 * first (`loadManifest(dir)`): this only reads.
 *
 * @example
 * readAssetFiles('my-integration', manifest); // { 'assets/icon.svg': 'PHN2Zy…' }
 */
export function readAssetFiles(dir: string, manifest: { icon?: unknown; previewImages?: unknown }) {
  const out: Record<string, string> = {};
  for (const [path] of manifestAssets(manifest))
    out[path] = readFileSync(resolve(dir, path)).toString('base64');
  return out;
}
