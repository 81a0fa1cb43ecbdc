import type { BuildOptions } from 'esbuild';

/** How an integration bundle is built: `publish` (minified, no map) or `dev` (readable, external map). */
export type BundleMode = 'publish' | 'dev';

/**
 * The esbuild options of every integration bundle: one ESM module, neutral platform (it runs in
 * workerd and in-process), workspace packages from their TypeScript sources (`source` condition),
 * JSX for ContentKit from `@platform/runtime`, `*.raw.js` files imported as text. `platform build` / `dev` / `publish` (through
 * {@link bundleIntegration}) and the repository's build (`scripts/build.mjs`, `dist/integration.js`
 * of each integration package) both build with exactly these.
 *
 * @example
 * ```ts
 * await build({ ...integrationBuildOptions('publish'), entryPoints: ['src/index.ts'], outfile: 'dist/integration.js' });
 * ```
 */
export function integrationBuildOptions(mode: BundleMode): BuildOptions {
  const dev = mode === 'dev';
  return {
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['source', 'worker', 'browser'],
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: '@platform/runtime',
    // `import script from './x.raw.js'`: the file's text (scripts injected into pages, HTML).
    loader: { '.raw.js': 'text' },
    minify: !dev,
    sourcemap: dev ? 'external' : false,
  };
}
