import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatIssues,
  loadManifest,
  MANIFEST_FILE,
  type Manifest,
  ManifestNotFoundError,
  publishedManifestText,
  readAssetFiles,
} from '@platform/manifest';
import { type BundleResult, bundleIntegration } from '../bundle.js';
import { BundleError, CliError, EXIT } from '../errors.js';
import { selectEnv } from './manifest-env.js';
import { type BundleProblem, blockProblems, eventProblems, exportProblems, inspectBundle } from './verify.js';

/** A built integration: the validated manifest (and its text) with the bundle. */
export interface BuiltIntegration {
  dir: string;
  /** The manifest as published: the selected environment's variant when one was applied. */
  manifest: Manifest;
  /** The text a publish sends: environment applied, `organization` set when given, no `envs`. */
  manifestText: string;
  /** The `envs.<name>` applied, if any. */
  env?: string;
  bundle: BundleResult;
  /** The manifest's `icon` and `previewImages` files: path as written there -> base64 bytes (what the host stores). */
  assets: Record<string, string>;
  /** Mistakes that do not stop the build: event handlers that never run (see `eventProblems`). */
  warnings: BundleProblem[];
}

/** Options of {@link readValidManifest}. */
export interface ReadManifestOptions {
  firstParty?: boolean;
  /** `--env <name>`: apply `envs.<name>` (see `selectEnv` for names that only pick a `.env` file). */
  env?: string;
}

function load(dir: string, options: { firstParty: boolean; env?: string }) {
  let result: ReturnType<typeof loadManifest>;
  try {
    result = loadManifest(dir, options);
  } catch (error) {
    if (error instanceof ManifestNotFoundError) throw new CliError(error.code, error.message, EXIT.usage);
    throw error;
  }
  if (!result.ok) {
    const where = options.env ? ` with envs.${options.env} applied` : '';
    throw new CliError(
      'invalid_manifest',
      `${MANIFEST_FILE} is invalid${where} (run \`platform check${options.env ? ` --env ${options.env}` : ''}\` for details):\n${formatIssues(result.errors, MANIFEST_FILE)}`,
      EXIT.invalid,
    );
  }
  return result.manifest;
}

/**
 * Loads and validates the manifest of `dir` (with `envs.<env>` applied when `env` names a declared
 * environment), or throws a {@link CliError}: usage (exit 2) when missing or for an undeclared
 * environment, invalid (exit 1) with compiler-style lines when wrong.
 *
 * @example
 * ```ts
 * const { manifest, text } = readValidManifest('my-integration', { env: 'staging' });
 * ```
 */
export function readValidManifest(
  dir: string,
  options: ReadManifestOptions = {},
): { manifest: Manifest; text: string; env?: string } {
  const firstParty = options.firstParty ?? false;
  const base = load(dir, { firstParty });
  const env = selectEnv(dir, base, options.env);
  const manifest = env === undefined ? base : load(dir, { firstParty, env });
  const text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  return { manifest, text, ...(env === undefined ? {} : { env }) };
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
  options: ReadManifestOptions & {
    mode?: 'publish' | 'dev';
    /** Sets `organization` (`platform publish --organization`), overriding the manifest and env. */
    organization?: string;
    /** Sets `organization` only when neither `organization` nor the manifest has one (`platform dev`). */
    fallbackOrganization?: string;
  } = {},
): Promise<BuiltIntegration> {
  const { manifest, text, env } = readValidManifest(dir, options);
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
  const organization =
    options.organization ?? (manifest.organization ? undefined : options.fallbackOrganization);
  const manifestText = publishedManifestText(text, {
    ...(env === undefined ? {} : { env }),
    ...(organization === undefined ? {} : { organization }),
  });
  return {
    dir,
    manifest: organization === undefined ? manifest : { ...manifest, organization },
    manifestText,
    ...(env === undefined ? {} : { env }),
    bundle,
    assets: readAssetFiles(dir, manifest),
    warnings,
  };
}
