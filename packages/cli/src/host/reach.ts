import { EVENT_SCOPES } from '@platform/manifest';
import type { HostClient, InstallationView } from './client.js';

/** Which installations of a place an event reaches, and why each other one does not. */
export interface Reach {
  reached: InstallationView[];
  missed: Array<{ installation: InstallationView; why: string }>;
}

/** The part of an integration (`GET /v1/integrations`) routing looks at. */
interface IntegrationScopes {
  name: string;
  scopes: string[];
}

/**
 * Why an event of `type` does not reach `installation` (undefined when it does), by the host's
 * routing rules (docs/first-integration.md "Why an event reaches no installation"): only active
 * installations; the integration needs the event's scope; a webhook installation only gets the
 * types its configuration selects.
 *
 * @example
 * ```ts
 * missReason(installation, { name: 'hello', scopes: [] }, 'space_visibility_updated');
 * // 'its integration hello lacks the scope `space:metadata:read` (add it to the manifest `scopes`)'
 * ```
 */
export function missReason(
  installation: Pick<InstallationView, 'status' | 'integration' | 'configuration'>,
  integration: IntegrationScopes | undefined,
  type: string,
): string | undefined {
  if (installation.status !== 'active') return `it is ${installation.status}, not active`;
  const needed = (EVENT_SCOPES as Record<string, string | null | undefined>)[type];
  if (needed && !integration?.scopes.includes(needed)) {
    return `its integration ${installation.integration} lacks the scope \`${needed}\` (add it to the manifest \`scopes\`)`;
  }
  if (installation.integration === 'webhook' && installation.configuration[type] !== true) {
    return `the webhook does not select ${type} (configure ${type}=true)`;
  }
  return undefined;
}

/**
 * Asks the host which installations of a space or a site an event of `type` reaches.
 *
 * @example
 * ```ts
 * const { reached, missed } = await eventReach(host, 'space_visibility_updated', { space: 'space_dev' });
 * ```
 */
export async function eventReach(
  host: HostClient,
  type: string,
  place: { space: string } | { site: string },
): Promise<Reach> {
  const [{ installations }, { integrations }] = await Promise.all([
    host.call('GET /v1/installations', { query: place }),
    host.call('GET /v1/integrations'),
  ]);
  const byName = new Map(integrations.map((i) => [i.name, i]));
  const reach: Reach = { reached: [], missed: [] };
  for (const installation of installations) {
    const why = missReason(installation, byName.get(installation.integration), type);
    if (why === undefined) reach.reached.push(installation);
    else reach.missed.push({ installation, why });
  }
  return reach;
}

/**
 * Lines saying where an event went: `→ reached hello (inst_1)` or why it reached no installation.
 *
 * @example
 * ```ts
 * io.stdout(describeReach(reach, 'space space_dev'));
 * ```
 */
export function describeReach(reach: Reach, where: string): string {
  if (reach.reached.length > 0) {
    return `  reached ${reach.reached.map((i) => `${i.integration} (${i.id})`).join(', ')}\n`;
  }
  if (reach.missed.length === 0) {
    return `  reached no installation: nothing is installed in ${where} (platform install / platform dev)\n`;
  }
  return `  reached no installation in ${where}:\n${reach.missed
    .map(({ installation, why }) => `    ${installation.integration} (${installation.id}): ${why}\n`)
    .join('')}`;
}
