import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatIssues,
  loadManifest,
  MANIFEST_FILE,
  type Manifest,
  ManifestNotFoundError,
  readAssetFiles,
} from '@platform/manifest';
import { type BundleResult, bundleIntegration } from '../bundle.js';
import { BundleError, CliError, EXIT } from '../errors.js';
import { type BundleProblem, blockProblems, eventProblems, exportProblems, inspectBundle } from './verify.js';

/** A built integration: the validated manifest (and its text) with the bundle. */
export interface BuiltIntegration {
  dir: string;
  manifest: Manifest;
  manifestText: string;
  bundle: BundleResult;
  /** The manifest's `icon` and `previewImages` files: path as written there -> base64 bytes (what the host stores). */
  assets: Record<string, string>;
  /** Mistakes that do not stop the build: event handlers that never run (see `eventProblems`). */
  warnings: BundleProblem[];
}

/**
 * Loads and validates the manifest of `dir`, or throws a {@link CliError}: usage (exit 2) when
 * missing, invalid (exit 1) with compiler-style lines when wrong.
 *
 * @example
 * ```ts
 * const { manifest, text } = readValidManifest('my-integration');
 * ```
 */
export function readValidManifest(dir: string, firstParty = false): { manifest: Manifest; text: string } {
  let result: ReturnType<typeof loadManifest>;
  try {
    result = loadManifest(dir, { firstParty });
  } catch (error) {
    if (error instanceof ManifestNotFoundError) throw new CliError(error.code, error.message, EXIT.usage);
    throw error;
  }
  if (!result.ok) {
    throw new CliError(
      'invalid_manifest',
      `${MANIFEST_FILE} is invalid (run \`platform check\` for details):\n${formatIssues(result.errors, MANIFEST_FILE)}`,
      EXIT.invalid,
    );
  }
  return { manifest: result.manifest, text: readFileSync(join(dir, MANIFEST_FILE), 'utf8') };
}

/**
 * Validates the manifest, bundles the script and verifies the module (default export only, an
 * integration, every `blocks[].id` a component). Throws a {@link BundleError} listing every problem.
 *
 * @example
 * ```ts
 * const built = await buildIntegration('my-integration', { mode: 'publish' });
 * console.log(built.bundle.bytes);
 * ```
 */
export async function buildIntegration(
  dir: string,
  options: { mode?: 'publish' | 'dev'; firstParty?: boolean } = {},
): Promise<BuiltIntegration> {
  const { manifest, text } = readValidManifest(dir, options.firstParty);
  const bundle = await bundleIntegration(dir, {
    ...(manifest.script ? { entry: manifest.script } : {}),
    mode: options.mode ?? 'publish',
  });
  const problems = exportProblems(bundle);
  const warnings: BundleProblem[] = [];
  if (problems.length === 0) {
    const inspection = await inspectBundle(bundle.code, bundle.entry);
    if (!inspection.ok) problems.push({ path: 'script', message: inspection.message });
    else {
      problems.push(...blockProblems(manifest, inspection.componentIds));
      warnings.push(...eventProblems(manifest, inspection.handlers));
    }
  }
  if (problems.length > 0) {
    throw new BundleError(
      `${bundle.entry} is not a valid integration:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
    );
  }
  return { dir, manifest, manifestText: text, bundle, assets: readAssetFiles(dir, manifest), warnings };
}
