import type { HostRoutes } from '@platform/host/api';
import { CliError, EXIT } from '../errors.js';
import type { HostClient } from './client.js';

/** Who a token is, as the host answers `GET /v1/whoami`. */
export type WhoAmI = HostRoutes['GET /v1/whoami']['response'];

/**
 * How long until `iso`, in words: `in 29 days`, `in 3 hours`, `in 12 minutes`, `2 hours ago`.
 *
 * @example
 * ```ts
 * fromNow('2026-01-02T00:00:00Z', Date.parse('2026-01-01T00:00:00Z')); // 'in 1 day'
 * ```
 */
export function fromNow(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  const abs = Math.abs(ms);
  const units: Array<[string, number]> = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ];
  const [unit, size] = units.find(([, size]) => abs >= size) ?? ['minute', 60_000];
  const count = Math.max(1, Math.round(abs / size));
  const words = `${count} ${unit}${count === 1 ? '' : 's'}`;
  return ms >= 0 ? `in ${words}` : `${words} ago`;
}

/**
 * When a token or session expires, in words: `never expires` or `expires <iso> (in 29 days)`.
 *
 * @example
 * ```ts
 * describeExpiry(null); // 'never expires'
 * ```
 */
export function describeExpiry(expiresAt: string | null, now = Date.now()): string {
  return expiresAt === null ? 'never expires' : `expires ${expiresAt} (${fromNow(expiresAt, now)})`;
}

/**
 * Who the token is, in one phrase: `the operator`, `organization acme (Acme Inc.)`,
 * `installation inst_1`, `portal session pps_1`.
 *
 * @example
 * ```ts
 * principalPhrase(await host.call('GET /v1/whoami')); // 'organization acme'
 * ```
 */
export function principalPhrase(who: WhoAmI): string {
  switch (who.principal) {
    case 'operator':
      return 'the operator';
    case 'organization': {
      const org = who.organization;
      if (!org) return 'an organization';
      return org.name && org.name !== org.id
        ? `organization ${org.id} (${org.name})`
        : `organization ${org.id}`;
    }
    case 'installation':
      return `installation ${who.installation ?? ''}`.trim();
    case 'portal':
      return `portal session ${who.portal?.session ?? ''}`.trim();
  }
}

/**
 * The lines under the first one of `login` and `whoami` for an organization token: its name and id,
 * scopes and expiry (empty for any other principal).
 *
 * @example
 * ```ts
 * tokenLines(who); // ['  token name "ci", id tok_1', '  scopes: integrations:publish', '  never expires']
 * ```
 */
export function tokenLines(who: WhoAmI, now = Date.now()): string[] {
  if (!who.token) return [];
  return [
    `  token name "${who.token.name}", id ${who.token.id}`,
    `  scopes: ${who.token.scopes.join(', ') || '(none)'}`,
    `  ${describeExpiry(who.token.expiresAt, now)}`,
  ];
}

/**
 * The organization a command acts for: `explicit` (`--organization`), else the one of the token in use
 * (`GET /v1/whoami`). The operator's token belongs to no organization: it must name one, and a usage
 * error says so, with `example` as the command to run.
 *
 * @example
 * ```ts
 * const org = await organizationFor(host, options.organization, 'platform tokens list --organization acme');
 * ```
 */
export async function organizationFor(
  host: HostClient,
  explicit: string | undefined,
  example: string,
): Promise<string> {
  if (explicit !== undefined) {
    if (explicit.trim() === '') throw new CliError('usage', '--organization is empty.', EXIT.usage);
    return explicit;
  }
  const who = await host.call('GET /v1/whoami');
  if (who.organization) return who.organization.id;
  const whose = who.principal === 'operator' ? 'the operator token' : `the token of ${principalPhrase(who)}`;
  throw new CliError(
    'missing_organization',
    `which organization? ${whose} (from ${host.target.tokenSource}) belongs to no organization: pass --organization <id>, e.g. \`${example}\`.`,
    EXIT.usage,
  );
}
