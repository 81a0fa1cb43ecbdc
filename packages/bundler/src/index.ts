/**
 * @platform/bundler: bundles an integration into the self-contained ESM module the host stores
 * and runs. One set of esbuild options for the CLI and the repository's build; no dependency on
 * the host or the CLI, so either (and their tests) can use it without a package cycle.
 *
 * @example
 * ```ts
 * import { bundleIntegration } from '@platform/bundler';
 * const { code } = await bundleIntegration('integrations/webhook');
 * ```
 */
export {
  BundleError,
  type BundleOptions,
  type BundleResult,
  bundleIntegration,
  defaultEntry,
} from './bundle.js';
export { type BundleMode, integrationBuildOptions } from './options.js';
export {
  WEBFRAME_ENTRIES,
  WEBFRAME_MARKER,
  WEBFRAME_PAGES,
  webframePage,
  webframePlugin,
} from './webframe.js';
