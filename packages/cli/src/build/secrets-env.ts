import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { type Manifest, parseSecretValue } from '@platform/manifest';
import { CliError, EXIT } from '../errors.js';

/** Names of the environment variables the manifest `secrets` reference (`${{ env.NAME }}`). */
export function referencedEnvNames(manifest: Pick<Manifest, 'secrets'>): string[] {
  const names = new Set<string>();
  for (const value of Object.values(manifest.secrets ?? {})) {
    for (const part of parseSecretValue(value).parts) if (part.kind === 'env') names.add(part.name);
  }
  return [...names].sort();
}

/**
 * The values to send as the publish body's `env`: only the variables the manifest references,
 * from the process environment, else from `<dir>/.env.<envName>` (or `<dir>/.env` without a name;
 * the file may be absent when the process environment has every value). Throws a usage error
 * naming every missing variable and where it was looked for.
 *
 * @example
 * ```ts
 * secretEnv(dir, manifest, process.env, 'production'); // { HELLO_CLIENT_ID: '...' }
 * ```
 */
export function secretEnv(
  dir: string,
  manifest: Pick<Manifest, 'secrets'>,
  processEnv: Readonly<Record<string, string | undefined>>,
  envName?: string,
): Record<string, string> {
  const names = referencedEnvNames(manifest);
  if (names.length === 0) return {};
  const fileName = envName ? `.env.${envName}` : '.env';
  const file = join(dir, fileName);
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    const value = processEnv[name] ?? fromFile[name];
    if (value === undefined) missing.push(name);
    else out[name] = value;
  }
  if (missing.length > 0) {
    throw new CliError(
      'missing_secret_env',
      `the manifest secrets need ${missing.join(', ')}: set ${missing.length === 1 ? 'it' : 'them'} in the environment or in ${fileName}${existsSync(file) ? '' : ` (${fileName} does not exist in ${dir})`}.`,
      EXIT.usage,
    );
  }
  return out;
}
