import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

/** The secret-manager references the manifest `secrets` hold (`${{ "op://vault/item/field" }}`). */
export function referencedSecretRefs(manifest: Pick<Manifest, 'secrets'>): string[] {
  const refs = new Set<string>();
  for (const value of Object.values(manifest.secrets ?? {})) {
    for (const part of parseSecretValue(value).parts) if (part.kind === 'ref') refs.add(part.ref);
  }
  return [...refs].sort();
}

/** The secrets file read when `--secrets` is not given (docs/manifest.md "Secrets"). */
export const DEFAULT_SECRETS_FILE = '.secrets.json';

/**
 * The values of the manifest's secret-manager references, from a JSON file mapping each reference
 * to its value (`{ "op://vault/item/field": "..." }`; e.g. written by the secret manager's own CLI).
 * Throws a usage error naming every reference the file lacks, never a value.
 *
 * @example
 * ```ts
 * secretRefValues(dir, manifest); // { 'op://vault/item/field': '...' } from <dir>/.secrets.json
 * ```
 */
export function secretRefValues(
  dir: string,
  manifest: Pick<Manifest, 'secrets'>,
  secretsFile?: string,
): Record<string, string> {
  const refs = referencedSecretRefs(manifest);
  if (refs.length === 0) return {};
  const file = secretsFile ? resolve(dir, secretsFile) : join(dir, DEFAULT_SECRETS_FILE);
  const how = `a JSON object mapping each reference to its value (e.g. {"${refs[0]}": "..."}), passed with --secrets <file> or saved as ${DEFAULT_SECRETS_FILE} in the integration folder`;
  if (!existsSync(file)) {
    throw new CliError(
      'missing_secret_ref',
      `the manifest secrets reference ${refs.join(', ')}, resolved at publish from ${how}; ${file} does not exist.`,
      EXIT.usage,
    );
  }
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new CliError('invalid_secrets_file', `${file} is not valid JSON; it must be ${how}.`, EXIT.usage);
  }
  const record = typeof values === 'object' && values !== null && !Array.isArray(values) ? values : {};
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const ref of refs) {
    const value = (record as Record<string, unknown>)[ref];
    if (typeof value === 'string') out[ref] = value;
    else missing.push(ref);
  }
  if (missing.length > 0) {
    throw new CliError(
      'missing_secret_ref',
      `${file} has no string value for ${missing.join(', ')}; it must be ${how}.`,
      EXIT.usage,
    );
  }
  return out;
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
  secretsFile?: string,
): Record<string, string> {
  const refs = secretRefValues(dir, manifest, secretsFile);
  const names = referencedEnvNames(manifest);
  if (names.length === 0) return refs;
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
  return { ...out, ...refs };
}
