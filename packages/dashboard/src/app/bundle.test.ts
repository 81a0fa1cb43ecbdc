import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

it('the browser bundle takes only types from the host: no host or zod code is bundled', async () => {
  // The same entry and platform as scripts/build-assets.mjs, from the TypeScript sources.
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src/app/main.tsx')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => resolve(root, p));
  expect(inputs.some((p) => p.includes('api-client/src/host-api.ts'))).toBe(true);
  expect(inputs.filter((p) => /packages\/host\/|node_modules\/(zod|hono|@hono)\//.test(p))).toEqual([]);
});
