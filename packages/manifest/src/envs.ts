import type { Manifest } from './schema.js';

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
  if (!override) {
    const known = Object.keys(envs ?? {});
    throw new Error(
      `environment \`${name}\` is not declared in \`envs\` (${known.length ? known.map((k) => `\`${k}\``).join(', ') : 'none'}).`,
    );
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) if (value !== undefined) out[key] = value;
  return out as Omit<Manifest, 'envs'>;
}
