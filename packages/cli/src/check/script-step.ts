import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Issue, MANIFEST_FILE, type Manifest } from '@platform/manifest';
import {
  type BundleProblem,
  blockProblems,
  eventProblems,
  exportProblems,
  inspectBundle,
} from '../build/verify.js';
import { bundleIntegration, defaultEntry } from '../bundle.js';
import { BundleError } from '../errors.js';
import { bootBundle } from './boot.js';
import type { CheckStep } from './run-check.js';

/** Line of a manifest key, found in the text (1 when not found). */
export function lineOf(text: string, path: string): number {
  const lines = text.split('\n');
  const block = /^blocks\[(\d+)\]\.id$/.exec(path);
  if (block) {
    const start = lines.findIndex((l) => /^blocks\s*:/.test(l));
    let seen = -1;
    for (let i = start + 1; start >= 0 && i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (/^\S/.test(line)) break;
      if (/^\s*-\s/.test(line)) seen++;
      if (seen === Number(block[1]) && /^\s*-?\s*id\s*:/.test(line)) return i + 1;
    }
    return start + 1 || 1;
  }
  const screen = /^configurations\.(\w+)\.componentId$/.exec(path);
  if (screen) {
    const at = lines.findIndex((l) => /^\s+componentId\s*:/.test(l));
    if (at >= 0) return at + 1;
  }
  const index = lines.findIndex((l) => new RegExp(`^${path}\\s*:`).test(l));
  return index + 1 || 1;
}

/**
 * Where a script's name is written as a key (`name:`, `'name':`, `name(`) in a source file: line and
 * column, 1-based; null when the file lacks it (the name came from another module).
 *
 * @example
 * locateKey("events: {\n  space_content_update: async () => {}\n}", 'space_content_update'); // { line: 2, column: 3 }
 */
export function locateKey(source: string, name: string): { line: number; column: number } | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(['"\`]?)\\b${escaped}\\b\\1\\s*[:(]`).exec(source);
  if (!match) return null;
  const before = source.slice(0, match.index);
  const line = before.split('\n').length;
  return { line, column: match.index - before.lastIndexOf('\n') };
}

function toIssue(text: string, problem: BundleProblem, source?: { file: string; text: string }): Issue {
  // a problem about a name of the script points at it in the source, where it is fixed
  const at = problem.name && source ? locateKey(source.text, problem.name) : null;
  if (at && source) {
    return {
      path: problem.path,
      file: source.file,
      ...at,
      message: problem.message,
      severity: problem.severity ?? 'error',
    };
  }
  return {
    path: problem.path,
    line: lineOf(text, problem.path),
    column: 1,
    message: problem.message,
    severity: problem.severity ?? 'error',
  };
}

async function problemsOf(dir: string, manifest: Manifest): Promise<BundleProblem[]> {
  const entry = manifest.script ?? defaultEntry(dir);
  if (!existsSync(join(dir, entry))) return [];
  let bundle: Awaited<ReturnType<typeof bundleIntegration>>;
  try {
    bundle = await bundleIntegration(dir, {
      ...(manifest.script ? { entry: manifest.script } : {}),
      mode: 'dev',
    });
  } catch (error) {
    if (error instanceof BundleError) return [{ path: 'script', message: error.message }];
    throw error;
  }
  const exports = exportProblems(bundle);
  if (exports.length > 0) return exports;
  const inspection = await inspectBundle(bundle.code, bundle.entry);
  if (!inspection.ok) return [{ path: 'script', message: inspection.message }];
  const blocks = [
    ...blockProblems(manifest, inspection.componentIds),
    ...eventProblems(manifest, inspection.handlers, inspection.hooks),
  ];
  if (blocks.length > 0) return blocks;
  return bootBundle(bundle.code, manifest, { hooks: inspection.hooks });
}

/**
 * The `platform check` step after the manifest: bundle the `script`, verify the module, boot it in
 * workerd and call it with a minimal envelope (and render every block).
 *
 * @example
 * ```ts
 * const report = await runCheck(dir, { steps: [scriptCheckStep] });
 * ```
 */
export const scriptCheckStep: CheckStep = async ({ dir, manifest }) => {
  const text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  const entry = manifest.script ?? defaultEntry(dir);
  if (!existsSync(join(dir, entry))) {
    return [
      {
        ...toIssue(text, { path: 'script', message: '' }),
        severity: 'warning',
        message: `the script ${entry} does not exist, so it was not bundled or booted; \`platform build\` needs it.`,
      },
    ];
  }
  const source = { file: entry, text: readFileSync(join(dir, entry), 'utf8') };
  return (await problemsOf(dir, manifest)).map((p) => toIssue(text, p, source));
};
