import { type Document, isMap, isScalar, parseDocument } from 'yaml';
import { isRecord } from './data.js';
import type { Manifest } from './schema.js';

/**
 * The names declared under `envs` of parsed manifest data (`[]` when none).
 *
 * @example
 * envNames({ envs: { staging: {}, production: {} } }); // ['staging', 'production']
 */
export function envNames(data: unknown): string[] {
  return isRecord(data) && isRecord(data.envs) ? Object.keys(data.envs) : [];
}

/**
 * The message for an environment that `envs` does not declare, listing the declared ones.
 *
 * @example
 * ```ts
 * unknownEnvMessage('prod', ['staging']); // 'environment `prod` is not declared in `envs` (declared: `staging`)...'
 * ```
 */
export function unknownEnvMessage(name: string, known: readonly string[]): string {
  return `environment \`${name}\` is not declared in \`envs\` (${known.length ? `declared: ${known.map((k) => `\`${k}\``).join(', ')}` : 'none declared'}); add \`envs.${name}\` to the manifest or pick a declared one`;
}

/**
 * The manifest as seen in one environment: each key of `envs.<name>` replaces the top-level one
 * (whole values, no deep merge), and `envs` itself is dropped. Throws when the environment is not
 * declared, naming the ones that are.
 *
 * @example
 * ```ts
 * const staging = manifestForEnv(manifest, 'staging'); // staging.organization from envs.staging
 * ```
 */
export function manifestForEnv(manifest: Manifest, name: string): Omit<Manifest, 'envs'> {
  const { envs, ...base } = manifest;
  const override = envs?.[name];
  if (!override) throw new Error(`${unknownEnvMessage(name, Object.keys(envs ?? {}))}.`);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) if (value !== undefined) out[key] = value;
  return out as Omit<Manifest, 'envs'>;
}

/**
 * `manifestForEnv` on the YAML document: a copy where each pair of `envs.<name>` replaces the
 * top-level value of its key, without `envs`. The moved nodes keep their source ranges, so issues
 * found in the copy point at the lines of the original text. `undefined` when the environment is
 * not declared (or the document is not a mapping).
 *
 * @example
 * ```ts
 * const staging = documentForEnv(parseDocument(text), 'staging')?.toString();
 * ```
 */
export function documentForEnv(doc: Document, name: string): Document | undefined {
  const copy = doc.clone();
  const root = copy.contents;
  if (!isMap(root)) return undefined;
  const envs = root.get('envs', true);
  const override = isMap(envs) ? envs.get(name, true) : undefined;
  if (!isMap(override)) return undefined;
  for (const pair of override.items) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    const existing = root.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
    if (existing) existing.value = pair.value;
    else root.items.push(pair);
  }
  root.delete('envs');
  return copy;
}

/** Options of {@link publishedManifestText}. */
export interface PublishedManifestOptions {
  /** Apply `envs.<name>` (must be declared). */
  env?: string;
  /** Set `organization`, overriding the manifest and the environment. */
  organization?: string;
}

/**
 * The manifest text a publish sends: `envs.<env>` applied, `organization` set when given, and
 * `envs` removed (a published version is one environment). Comments and formatting of the
 * untouched keys are kept. Throws when `env` is not declared, naming the declared ones.
 *
 * @example
 * ```ts
 * publishedManifestText(text, { env: 'staging', organization: 'acme' }); // YAML without `envs`
 * ```
 */
export function publishedManifestText(text: string, options: PublishedManifestOptions = {}): string {
  const doc = parseDocument(text);
  let out: Document = doc;
  if (options.env !== undefined) {
    const variant = documentForEnv(doc, options.env);
    if (!variant) throw new Error(`${unknownEnvMessage(options.env, envNames(doc.toJS()))}.`);
    out = variant;
  } else if (isMap(doc.contents)) {
    doc.contents.delete('envs');
  }
  if (options.organization !== undefined) out.set('organization', options.organization);
  return out.toString();
}
