import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

it('the portal bundle keeps its token in memory: no browser storage, no sign-in code, no host code', async () => {
  // The same entry and platform as scripts/build-assets.mjs, from the TypeScript sources.
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src/portal/main.tsx')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => resolve(root, p));
  expect(inputs.some((p) => p.endsWith('src/portal/link.ts'))).toBe(true);
  // the dashboard's sign-in (which stores the operator token) is not part of the portal
  expect(inputs.filter((p) => p.endsWith('src/app/auth.ts') || p.endsWith('src/app/main.tsx'))).toEqual([]);
  expect(inputs.filter((p) => /packages\/host\/|node_modules\/(zod|hono|@hono)\//.test(p))).toEqual([]);
  const code = result.outputFiles?.[0]?.text ?? '';
  expect(code.length).toBeGreaterThan(1000);
  expect(code).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
});
