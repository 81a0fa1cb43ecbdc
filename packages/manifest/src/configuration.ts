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

/**
 * The sample a `string` property (or, at `platform check`, a secret) gets: a URL or an email address
 * when a word of its name says so, else `sample`.
 *
 * @example
 * sampleString('APP_INSTALL_URL'); // 'https://example.com/sample'
 */
export function sampleString(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((w) => ['url', 'uri', 'endpoint', 'link', 'href'].includes(w))) {
    return 'https://example.com/sample';
  }
  if (words.some((w) => w === 'email' || w === 'mail')) return 'sample@example.com';
  return 'sample';
}

/**
 * The least configuration with which an installation of `place` is complete, as `platform check`
 * runs the script with (docs/published-scripts.md "`platform check`"): every `default`, and for a
 * `required` property without one a sample of its type: a `string`'s first `enum` value, else
 * `https://example.com/sample` when a word of its name is `url`, `uri`, `endpoint`, `link` or
 * `href` (`webhookUrl`, `api_endpoint`), `sample@example.com` when one is `email` or `mail`,
 * else `sample`; `1` for a `number`; `false` for a `boolean`. `button` properties (OAuth
 * credentials) stay unset: no sample stands for a connection.
 *
 * @example
 * sampleConfiguration(manifest, 'site'); // { tracking_id: 'sample', anonymize: true }
 */
export function sampleConfiguration(
  manifest: Pick<Manifest, 'configurations'>,
  place: ConfigurationPlaceName,
): Record<string, string | number | boolean> {
  const out = configurationDefaults(manifest, place);
  const settings = manifest.configurations?.[place];
  for (const key of settings?.required ?? []) {
    const property = settings?.properties?.[key];
    if (!property || key in out) continue;
    if (property.type === 'string') out[key] = property.enum?.[0] ?? sampleString(key);
    else if (property.type === 'number') out[key] = 1;
    else if (property.type === 'boolean') out[key] = false;
  }
  return out;
}
