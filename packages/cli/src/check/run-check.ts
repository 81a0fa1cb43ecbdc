import { type Issue, loadManifest, type Manifest, ManifestNotFoundError } from '@platform/manifest';
import { CliError, EXIT } from '../errors.js';

/** What `platform check` found. */
export interface CheckReport {
  ok: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/** Input of a check step that runs once the manifest is valid. */
export interface CheckContext {
  dir: string;
  manifest: Manifest;
}

/**
 * A further check run after the manifest validated (the seam where bundling and booting the
 * `script` will plug in). Returns issues to add to the report; it must not throw on bad input.
 */
export type CheckStep = (context: CheckContext) => Promise<Issue[]>;

/** Options of {@link runCheck}. */
export interface RunCheckOptions {
  firstParty?: boolean;
  /** Also check the manifest as seen in `envs.<env>` (the steps then run on that variant). */
  env?: string;
  /** Steps run in order after the manifest is valid; an error from one stops the later ones. */
  steps?: readonly CheckStep[];
}

/**
 * Validates the manifest of `dir`, then runs the extra steps. Throws a usage {@link CliError} when
 * there is no folder or no manifest.
 *
 * @example
 * ```ts
 * const report = await runCheck('examples/manifests/valid');
 * report.ok; // true
 * ```
 */
export async function runCheck(dir: string, options: RunCheckOptions = {}): Promise<CheckReport> {
  let result: ReturnType<typeof loadManifest>;
  try {
    result = loadManifest(dir, {
      firstParty: options.firstParty ?? false,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (error) {
    if (error instanceof ManifestNotFoundError) throw new CliError(error.code, error.message, EXIT.usage);
    throw error;
  }
  if (!result.ok) return { ok: false, errors: result.errors, warnings: result.warnings };
  const report: CheckReport = { ok: true, errors: [], warnings: [...result.warnings] };
  for (const step of options.steps ?? []) {
    const issues = await step({ dir, manifest: result.manifest });
    report.errors.push(...issues.filter((i) => i.severity === 'error'));
    report.warnings.push(...issues.filter((i) => i.severity === 'warning'));
    if (report.errors.length > 0) break;
  }
  report.ok = report.errors.length === 0;
  return report;
}
