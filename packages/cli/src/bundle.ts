// The CLI's face of @platform/bundler (the project's one integration bundler, shared with the
// repository's build): the same function, failures as the CLI's BundleError (exit code 1).
import {
  type BundleOptions,
  type BundleResult,
  BundleError as BundlerError,
  bundleIntegration as bundleWithEsbuild,
  defaultEntry,
} from '@platform/bundler';
import { BundleError } from './errors.js';

export { type BundleOptions, type BundleResult, defaultEntry };

/**
 * Bundles an integration into one ESM module for workerd (`@platform/bundler`); a failure is a
 * {@link BundleError} whose message says where and what. `platform build`, `check`, `dev` and
 * `publish` use it.
 *
 * @example
 * ```ts
 * const { code, bytes } = await bundleIntegration('my-integration', { entry: 'src/index.ts' });
 * ```
 */
export async function bundleIntegration(dir: string, options: BundleOptions = {}): Promise<BundleResult> {
  try {
    return await bundleWithEsbuild(dir, options);
  } catch (error) {
    if (error instanceof BundlerError) throw new BundleError(error.message);
    throw error;
  }
}
