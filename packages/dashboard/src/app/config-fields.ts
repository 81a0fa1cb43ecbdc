import type { ConfigurationPlaceName, Manifest } from '@platform/manifest';
import { settingsPlace } from '@platform/manifest/places';
/** One field of the configuration screen, derived from a manifest property (docs/contracts.md "Manifest"). */
export type ConfigField =
  | { kind: 'text'; key: string; title: string; description: string; required: boolean; default?: string }
  | {
      kind: 'select';
      key: string;
      title: string;
      description: string;
      required: boolean;
      options: string[];
      default?: string;
    }
  | { kind: 'completion'; key: string; title: string; description: string; required: boolean; url: string }
  | { kind: 'number'; key: string; title: string; description: string; required: boolean; default?: number }
  | { kind: 'switch'; key: string; title: string; description: string; required: boolean; default?: boolean }
  | {
      kind: 'oauth';
      key: string;
      title: string;
      description: string;
      required: boolean;
      buttonText: string;
      callbackUrl: string;
    };

/**
 * Which `configurations` section applies to an installation target: `settingsPlace` of
 * `@platform/manifest`, the host's own rule (site installations use `site`, or `space` when only
 * that is declared; space and organization installations use `account`).
 * @example placeOf('site', { configurations: { site: {} } }); // 'site'
 */
export function placeOf(target: string, manifest: Record<string, unknown> = {}): ConfigurationPlaceName {
  const known = target === 'site' || target === 'space' ? target : 'organization';
  return settingsPlace(manifest as Pick<Manifest, 'configurations'>, known);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);

/**
 * The component that renders the configuration screen of an installation target itself
 * (`configurations.<place>.componentId`), if the manifest names one.
 *
 * @example
 * configurationComponentOf(integration.manifest, 'space'); // 'config' or undefined
 */
export function configurationComponentOf(
  manifest: Record<string, unknown>,
  target: string,
): string | undefined {
  const configurations = isRecord(manifest.configurations) ? manifest.configurations : {};
  const section = configurations[placeOf(target, manifest)];
  return isRecord(section) && typeof section.componentId === 'string' && section.componentId !== ''
    ? section.componentId
    : undefined;
}

/** The manifest default's type for each kind of default a field can have. */
interface DefaultTypes {
  string: string;
  number: number;
  boolean: boolean;
}

/** `{ default: value }` when the manifest's default has the field's type; nothing otherwise. */
function defaultOf<K extends keyof DefaultTypes>(value: unknown, type: K): { default?: DefaultTypes[K] } {
  return typeof value === type ? { default: value as DefaultTypes[K] } : {};
}

/**
 * The fields of the configuration screen for an installation target, in manifest order.
 * Unknown property types are skipped.
 *
 * @example
 * configFields(integration.manifest, 'space'); // [{ kind: 'text', key: 'url', ... }, ...]
 */
export function configFields(manifest: Record<string, unknown>, target: string): ConfigField[] {
  const configurations = isRecord(manifest.configurations) ? manifest.configurations : {};
  const section = configurations[placeOf(target, manifest)];
  if (!isRecord(section) || !isRecord(section.properties)) return [];
  const required = new Set(Array.isArray(section.required) ? section.required.map(String) : []);
  const fields: ConfigField[] = [];
  for (const [key, raw] of Object.entries(section.properties)) {
    if (!isRecord(raw)) continue;
    const base = {
      key,
      title: str(raw.title, key),
      description: str(raw.description),
      required: required.has(key),
    };
    switch (raw.type) {
      case 'string':
        if (Array.isArray(raw.enum)) {
          fields.push({
            kind: 'select',
            ...base,
            options: raw.enum.map(String),
            ...defaultOf(raw.default, 'string'),
          });
        } else if (typeof raw.completion_url === 'string') {
          fields.push({ kind: 'completion', ...base, url: raw.completion_url });
        } else {
          fields.push({ kind: 'text', ...base, ...defaultOf(raw.default, 'string') });
        }
        break;
      case 'number':
        fields.push({ kind: 'number', ...base, ...defaultOf(raw.default, 'number') });
        break;
      case 'boolean':
        fields.push({ kind: 'switch', ...base, ...defaultOf(raw.default, 'boolean') });
        break;
      case 'button':
        fields.push({
          kind: 'oauth',
          ...base,
          buttonText: str(raw.button_text, 'Connect'),
          callbackUrl: str(raw.callback_url, '/oauth'),
        });
        break;
      default:
        break;
    }
  }
  return fields;
}

/** Values of the form, keyed like the configuration. */
export type FormValues = Record<string, string | number | boolean | undefined>;

/**
 * The form's starting values: the saved configuration, else the manifest default.
 * @example initialValues(fields, { channel: 'general' }); // { channel: 'general', tone: 'friendly', ... }
 */
export function initialValues(fields: ConfigField[], configuration: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'oauth') continue;
    const saved = configuration[field.key];
    if (typeof saved === 'string' || typeof saved === 'number' || typeof saved === 'boolean') {
      values[field.key] = saved;
    } else if ('default' in field && field.default !== undefined) {
      values[field.key] = field.default;
    } else if (field.kind === 'switch') {
      values[field.key] = false;
    }
  }
  return values;
}

/**
 * The JSON merge patch a save sends: every field's value, with empty text and numbers as `null`
 * (deletes the key). OAuth credentials are written by the integration, never by the form.
 * @example toPatch(fields, { url: '', enabled: true }); // { url: null, enabled: true }
 */
export function toPatch(fields: ConfigField[], values: FormValues): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === 'oauth') continue;
    const value = values[field.key];
    patch[field.key] = value === undefined || value === '' ? null : value;
  }
  return patch;
}

/**
 * Whether an OAuth button property counts as connected: the integration stored credentials.
 * @example isConnected({ oauth_credentials: { access_token: 't' } }); // true
 */
export function isConnected(configuration: Record<string, unknown>): boolean {
  const credentials = configuration.oauth_credentials;
  return isRecord(credentials) && Object.keys(credentials).length > 0;
}
