import { checkContentSecurityPolicy } from './csp.js';
import { isRecord } from './data.js';
import type { PathSegments, PendingIssue } from './issues.js';
import type { Manifest } from './schema.js';
import { CATEGORIES, INTERNAL_SCOPES } from './scopes.js';
import { parseSecretValue } from './secrets.js';
import { didYouMean } from './suggest.js';

/** Options of the cross-field rules. */
export interface RuleOptions {
  /** Grants the internal scopes (`site:script:*`). Decided by whoever validates, never by the manifest. */
  firstParty: boolean;
}

type Report = (path: PathSegments, message: string, severity?: 'error' | 'warning') => void;

/**
 * Rules a JSON Schema cannot express, run on the raw parsed data (defensively: they skip whatever
 * has the wrong shape, which the schema reports). Returns every problem found.
 */
export function checkRules(data: unknown, options: RuleOptions): PendingIssue[] {
  const out: PendingIssue[] = [];
  const report: Report = (path, message, severity = 'error') =>
    out.push({ path, anchor: 'value', message, severity });
  if (!isRecord(data)) return out;
  checkScopes(data.scopes, options, report);
  checkBlocks(data.blocks, report);
  if (isRecord(data.configurations)) {
    for (const [place, settings] of Object.entries(data.configurations)) {
      if (isRecord(settings)) checkPlace(['configurations', place], settings, report);
    }
  }
  checkSecrets(data.secrets, report);
  checkCategories(data.categories, report);
  checkTargetPlaces(data, report);
  checkContentSecurityPolicy(data.contentSecurityPolicy, ['contentSecurityPolicy'], report);
  if (isRecord(data.envs)) {
    for (const [env, overrides] of Object.entries(data.envs)) {
      if (isRecord(overrides)) {
        const path = ['envs', env, 'contentSecurityPolicy'];
        checkContentSecurityPolicy(overrides.contentSecurityPolicy, path, report);
      }
    }
  }
  return out;
}

/** Places a `target` can be installed in (docs: packages/manifest/README.md, "target"). */
const TARGET_PLACES: Record<string, string[]> = {
  space: ['account', 'space'],
  site: ['account', 'site'],
  organization: ['account'],
};

function checkTargetPlaces(data: Record<string, unknown>, report: Report): void {
  let places = typeof data.target === 'string' ? TARGET_PLACES[data.target] : undefined;
  if (!places || !isRecord(data.configurations)) return;
  // A site installation uses `space` settings when no `site` ones exist (settingsPlace, places.ts).
  if (data.target === 'site' && !('site' in data.configurations)) places = [...places, 'space'];
  for (const place of Object.keys(data.configurations)) {
    if (!places.includes(place) && ['account', 'space', 'site'].includes(place)) {
      report(
        ['configurations', place],
        `\`configurations.${place}\` is never shown: \`target: ${String(data.target)}\` installs only in ${places.map((p) => `\`${p}\``).join(' and ')}; remove it or change \`target\``,
        'warning',
      );
    }
  }
}

function checkScopes(scopes: unknown, options: RuleOptions, report: Report): void {
  if (!Array.isArray(scopes)) return;
  const seen = new Set<unknown>();
  scopes.forEach((scope, i) => {
    if ((INTERNAL_SCOPES as readonly unknown[]).includes(scope) && !options.firstParty) {
      report(
        ['scopes', i],
        `\`${String(scope)}\` is an internal scope reserved to first-party integrations; remove it (authors of bundled integrations run \`platform check --first-party\`)`,
      );
    }
    if (seen.has(scope))
      report(['scopes', i], `scope \`${String(scope)}\` is listed twice; remove one`, 'warning');
    seen.add(scope);
  });
}

function checkBlocks(blocks: unknown, report: Report): void {
  if (!Array.isArray(blocks)) return;
  const first = new Map<string, number>();
  blocks.forEach((block, i) => {
    if (!isRecord(block) || typeof block.id !== 'string') return;
    const earlier = first.get(block.id);
    if (earlier === undefined) first.set(block.id, i);
    else
      report(
        ['blocks', i, 'id'],
        `block id \`${block.id}\` is already used by blocks[${earlier}]; block ids must be unique`,
      );
  });
}

function checkPlace(path: PathSegments, settings: Record<string, unknown>, report: Report): void {
  const properties = isRecord(settings.properties) ? settings.properties : undefined;
  if (settings.properties === undefined && settings.componentId === undefined) {
    report(path, 'a configuration needs `properties` (fields), a `componentId` (its own screen), or both');
  }
  if (properties) {
    for (const [name, property] of Object.entries(properties)) {
      if (isRecord(property)) checkProperty([...path, 'properties', name], property, report);
    }
  }
  if (!Array.isArray(settings.required) || !properties) return;
  const names = Object.keys(properties);
  settings.required.forEach((name, i) => {
    if (typeof name === 'string' && !Object.hasOwn(properties, name)) {
      report(
        [...path, 'required', i],
        `\`${name}\` is listed in \`required\` but is not a property defined in \`properties\`.${didYouMean(name, names) || ' Define it or remove it from `required`.'}`,
      );
    }
  });
}

function checkProperty(path: PathSegments, property: Record<string, unknown>, report: Report): void {
  if (property.type !== 'string') return;
  const { default: value, enum: choices } = property;
  if (typeof value === 'string' && Array.isArray(choices) && !choices.includes(value)) {
    const strings = choices.filter((c): c is string => typeof c === 'string');
    report(
      [...path, 'default'],
      `default \`${value}\` is not one of \`enum\` (${strings.map((c) => `\`${c}\``).join(', ')}).${didYouMean(value, strings)}`,
    );
  }
  if (Array.isArray(choices) && property.completion_url !== undefined) {
    report(
      [...path, 'completion_url'],
      'use either `enum` (fixed options) or `completion_url` (options fetched from the integration), not both',
    );
  }
}

/** A category outside `CATEGORIES` is a warning (the marketplace lists it as written), with a did-you-mean. */
function checkCategories(categories: unknown, report: Report): void {
  if (!Array.isArray(categories)) return;
  for (const [i, category] of categories.entries()) {
    if (typeof category !== 'string' || (CATEGORIES as readonly string[]).includes(category)) continue;
    report(
      ['categories', i],
      `\`${category}\` is not a known category (${CATEGORIES.join(', ')}), so the marketplace lists it as written.${didYouMean(category, CATEGORIES)}`,
      'warning',
    );
  }
}

function checkSecrets(secrets: unknown, report: Report): void {
  if (!isRecord(secrets)) return;
  for (const [name, value] of Object.entries(secrets)) {
    if (typeof value !== 'string') continue;
    const { parts, problems } = parseSecretValue(value);
    for (const problem of problems) report(['secrets', name], `secret \`${name}\`: ${problem}`);
    if (problems.length === 0 && value !== '' && parts.every((p) => p.kind === 'text')) {
      report(
        ['secrets', name],
        `secret \`${name}\` is a literal value committed in the manifest; read it from the environment with \`\${{ env.${name} }}\``,
        'warning',
      );
    }
  }
}

/**
 * Warnings about keys that are optional in the file but matter later (packages/manifest/README.md
 * "Optional keys"): no `organization` (publish will need one), an empty `description`, a block
 * without `description`. Run on the manifest being checked (an environment's variant with `env`).
 *
 * @example
 * ```ts
 * checkPublishReadiness(manifest); // [{ path: ['organization'], severity: 'warning', ... }] when none is set
 * ```
 */
export function checkPublishReadiness(manifest: Omit<Manifest, 'envs'>, env?: string): PendingIssue[] {
  const out: PendingIssue[] = [];
  const warn = (path: PathSegments, message: string) =>
    out.push({ path, anchor: 'value', message, severity: 'warning' });
  if (manifest.organization === undefined) {
    warn(
      ['organization'],
      `\`organization\` is not set${env ? ` (nor in \`envs.${env}\`)` : ''}: \`platform publish\` will need it; pass \`--organization <id>\`, set it in \`envs.<name>\` and publish with \`--env <name>\`, add \`organization: <id>\` here, or publish with an organization token (its organization is used)`,
    );
  }
  if (manifest.description.trim() === '') {
    warn(
      ['description'],
      '`description` is empty: the installation page and the integration list show it; add one sentence saying what the integration does',
    );
  }
  manifest.blocks?.forEach((block, i) => {
    if ((block.description ?? '').trim() === '') {
      warn(
        ['blocks', i, block.description === undefined ? 'id' : 'description'],
        `block \`${block.id}\` has no \`description\`: the Command + / menu shows it under the title; add one`,
      );
    }
  });
  return out;
}
