import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { imageSize } from 'image-size';
import { isRecord } from './data.js';
import type { PathSegments, PendingIssue } from './issues.js';

type Report = (path: PathSegments, message: string, severity?: 'error' | 'warning') => void;

const ICON_TYPES = new Set(['png', 'jpg', 'svg', 'webp']);
const PREVIEW_TYPES = new Set(['png', 'jpg']);

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

function readImage(file: string): { width: number; height: number; type: string } | undefined {
  try {
    const size = imageSize(readFileSync(file));
    if (size.width === undefined || size.height === undefined || size.type === undefined) return undefined;
    return { width: size.width, height: size.height, type: size.type };
  } catch {
    return undefined;
  }
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
    const image = file === undefined ? undefined : readImage(file);
    if (file !== undefined && (image === undefined || !ICON_TYPES.has(image.type))) {
      report(['icon'], `icon \`${data.icon}\` must be a PNG, JPEG, SVG or WebP image`);
    }
  }
  if (Array.isArray(data.previewImages)) {
    data.previewImages.forEach((value, i) => {
      if (typeof value !== 'string' || value === '') return;
      const path = ['previewImages', i];
      const file = resolveFile(dir, path, value, 'preview image', report);
      if (file === undefined) return;
      const image = readImage(file);
      if (image === undefined) {
        report(path, `preview image \`${value}\` is not a readable PNG or JPEG image`);
      } else if (!PREVIEW_TYPES.has(image.type)) {
        report(path, `preview image \`${value}\` is a ${image.type.toUpperCase()} image; use PNG or JPEG`);
      } else if (image.width !== image.height * 2) {
        report(
          path,
          `preview image \`${value}\` is ${image.width}x${image.height}; use a 2:1 image (1600x800 recommended)`,
          'warning',
        );
      }
    });
  }
  return out;
}
