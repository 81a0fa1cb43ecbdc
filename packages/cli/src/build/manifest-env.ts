import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, type Manifest } from '@platform/manifest';
import { CliError, EXIT } from '../errors.js';

/**
 * Which `envs.<name>` an `--env <name>` applies (docs: packages/manifest/README.md "Environments"):
 * the name when the manifest declares it; `undefined` when the manifest declares no `envs` at all
 * and a `.env.<name>` file exists (the flag then only picks the secrets file, as before `envs`).
 * Any other name is a usage error listing the declared environments.
 *
 * @example
 * ```ts
 * selectEnv(dir, manifest, 'staging'); // 'staging' when envs.staging exists
 * ```
 */
export function selectEnv(dir: string, manifest: Pick<Manifest, 'envs'>, name?: string): string | undefined {
  if (name === undefined) return undefined;
  const declared = Object.keys(manifest.envs ?? {});
  if (declared.includes(name)) return name;
  if (declared.length === 0 && existsSync(join(dir, `.env.${name}`))) return undefined;
  const list = declared.length ? declared.map((k) => `\`${k}\``).join(', ') : 'none';
  throw new CliError(
    'unknown_env',
    `--env ${name}: environment \`${name}\` is not declared in \`envs\` of ${MANIFEST_FILE} (declared: ${list}). Add \`envs.${name}\` to the manifest or use one of the declared names.`,
    EXIT.usage,
  );
}

/**
 * The organization a publish uses: `--organization`, else the selected environment's
 * `organization` (already in `manifest` when an env was applied), else the manifest's. Throws a
 * usage error naming the three ways when none is set.
 *
 * @example
 * ```ts
 * publishOrganization(manifest, { organization: 'acme' }); // 'acme'
 * ```
 */
export function publishOrganization(
  manifest: Pick<Manifest, 'organization'>,
  options: { organization?: string; env?: string },
): string {
  const organization = options.organization ?? manifest.organization;
  if (organization) return organization;
  throw new CliError(
    'missing_organization',
    `publishing needs an organization and none is set${options.env ? ` (not in \`envs.${options.env}\` either)` : ''}: pass --organization <id>, set \`organization\` in \`envs.<name>\` of ${MANIFEST_FILE} and publish with --env <name>, or set \`organization\` in ${MANIFEST_FILE}.`,
    EXIT.usage,
  );
}
