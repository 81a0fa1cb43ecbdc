// Helpers for the dashboard's unit tests (not part of any bundle).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The main navigation's page links, in order: the operator's, and those of an organization token that
 * holds tokens:manage and audit:read (the header adds an "API" link after them).
 */
export const NAVIGATION = {
  operator: ['Integrations', 'Installations', 'Organizations', 'Audit', 'Host', 'Gallery'],
  organization: ['Integrations', 'Installations', 'Organization', 'Audit', 'Gallery'],
};

/** The dashboard package's root folder. */
export const dashboardRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles a browser entry the way scripts/build-assets.mjs does (same platform and JSX), from the
 * TypeScript sources, in memory: the absolute paths of its inputs and the code of its first output.
 *
 * @example
 * const { inputs, code } = await bundleEntry('src/portal/main.tsx');
 * expect(inputs.some((p) => p.endsWith('src/portal/link.ts'))).toBe(true);
 */
export async function bundleEntry(
  entry: string,
  define?: Record<string, string>,
): Promise<{ inputs: string[]; code: string }> {
  const result = await build({
    absWorkingDir: dashboardRoot,
    entryPoints: [join(dashboardRoot, entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    ...(define ? { define } : {}),
    logLevel: 'silent',
  });
  return {
    inputs: Object.keys(result.metafile.inputs).map((p) => resolve(dashboardRoot, p)),
    code: result.outputFiles[0]?.text ?? '',
  };
}

/** Inputs of a browser bundle that must never be there: host code, zod, hono. */
export const serverOnlyInputs = (inputs: string[]): string[] =>
  inputs.filter((p) => /packages\/host\/|node_modules\/(zod|hono|@hono)\//.test(p));
