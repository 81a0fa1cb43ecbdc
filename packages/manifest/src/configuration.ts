import type { ConfigurationPlaceName, ConfigurationProperty, Manifest } from './schema.js';

/** One problem of an installation's configuration. */
export interface ConfigurationError {
  /** The configuration key (property name). */
  key: string;
  message: string;
}

/** Result of {@link validateConfiguration}. */
export interface ConfigurationCheck {
  ok: boolean;
  errors: ConfigurationError[];
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function checkValue(key: string, property: ConfigurationProperty, value: unknown): string | undefined {
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return `\`${key}\` must be a string`;
      if (property.enum && !property.enum.includes(value))
        return `\`${key}\` must be one of ${property.enum.map((v) => `\`${v}\``).join(', ')}`;
      return undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `\`${key}\` must be a number`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `\`${key}\` must be true or false`;
    case 'button':
      return undefined;
  }
}

/**
 * Checks an installation's configuration against the manifest's `configurations[place]`: types,
 * `enum`, and `required` (missing, `null` or `""` count as unset; a `button` property is satisfied
 * by any non-empty value, e.g. saved OAuth credentials). Keys the manifest does not define are
 * allowed and not reported: integrations store their own data there (e.g. `oauth_credentials`).
 * Defaults are not applied: seed them with {@link configurationDefaults} at install time.
 *
 * @example
 * ```ts
 * const check = validateConfiguration(manifest, 'site', { url: 'https://example.com' });
 * const status = check.ok ? 'active' : 'pending';
 * ```
 */
export function validateConfiguration(
  manifest: Pick<Manifest, 'configurations'>,
  place: ConfigurationPlaceName,
  configuration: Readonly<Record<string, unknown>>,
): ConfigurationCheck {
  const settings = manifest.configurations?.[place];
  const errors: ConfigurationError[] = [];
  if (!settings) return { ok: true, errors };
  const required = new Set(settings.required ?? []);
  for (const [key, property] of Object.entries(settings.properties ?? {})) {
    const value = Object.hasOwn(configuration, key) ? configuration[key] : undefined;
    if (isEmpty(value)) {
      if (required.has(key)) {
        const how = property.type === 'button' ? `use "${property.button_text}" to connect` : 'set a value';
        errors.push({ key, message: `\`${key}\` (${property.title}) is required; ${how}` });
      }
      continue;
    }
    const problem = checkValue(key, property, value);
    if (problem) errors.push({ key, message: problem });
  }
  return { ok: errors.length === 0, errors };
}

/**
 * The `default` of every property of `configurations[place]` that declares one.
 *
 * @example
 * ```ts
 * const configuration = { ...configurationDefaults(manifest, 'account'), ...userInput };
 * ```
 */
export function configurationDefaults(
  manifest: Pick<Manifest, 'configurations'>,
  place: ConfigurationPlaceName,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  const properties = manifest.configurations?.[place]?.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.type !== 'button' && property.default !== undefined) out[key] = property.default;
  }
  return out;
}
