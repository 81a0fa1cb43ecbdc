import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { describeExpiry, organizationFor } from '../host/identity.js';
import type { HostFlags } from '../host/target.js';
import { table } from './lists.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * The expiry of a new token as an ISO time, from `--expires-in` (`30d`, `12h`, `90m`, `2w`) or
 * `--expires-at` (an ISO 8601 time in the future); `undefined` when neither is given (the token never
 * expires). Bad input is a usage error saying what is expected.
 *
 * @example
 * ```ts
 * expiryOf({ expiresIn: '30d' }, Date.parse('2026-01-01T00:00:00Z')); // '2026-01-31T00:00:00.000Z'
 * ```
 */
export function expiryOf(
  options: { expiresIn?: string; expiresAt?: string },
  now = Date.now(),
): string | undefined {
  if (options.expiresIn !== undefined && options.expiresAt !== undefined) {
    throw new CliError('usage', 'give --expires-in or --expires-at, not both.', EXIT.usage);
  }
  if (options.expiresIn !== undefined) {
    const match = /^(\d+)\s*([mhdw])$/i.exec(options.expiresIn.trim());
    const count = match ? Number(match[1]) : 0;
    const unit = UNITS[match?.[2]?.toLowerCase() ?? ''];
    if (!unit || count <= 0) {
      throw new CliError(
        'usage',
        `--expires-in "${options.expiresIn}": expected a whole number and a unit m, h, d or w, e.g. 90m, 12h, 30d, 2w.`,
        EXIT.usage,
      );
    }
    return new Date(now + count * unit).toISOString();
  }
  if (options.expiresAt !== undefined) {
    const at = Date.parse(options.expiresAt);
    if (Number.isNaN(at)) {
      throw new CliError(
        'usage',
        `--expires-at "${options.expiresAt}" is not an ISO 8601 time, e.g. 2026-12-31T23:59:59Z.`,
        EXIT.usage,
      );
    }
    if (at <= now)
      throw new CliError('usage', `--expires-at ${options.expiresAt} is in the past.`, EXIT.usage);
    return new Date(at).toISOString();
  }
  return undefined;
}

/** Collects a repeatable option; `a,b` counts as two values. */
function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** The flags of every `platform tokens` command: the host's, and the organization. */
type HostOptions = HostFlags & { organization?: string };

/**
 * Registers `platform tokens create | list | revoke`: the organization tokens (`pot_…`) of an
 * organization (`/v1/organizations/{organization}/tokens`). The organization is `--organization`, else
 * the one of the token in use; the operator must name it.
 *
 * @example
 * ```ts
 * registerTokens(program, context); // platform tokens create --name ci --scope integrations:publish
 * ```
 */
export function registerTokens(program: Command, context: CommandContext): void {
  const { io } = context;
  const tokens = program
    .command('tokens')
    .description("an organization's tokens: create (shown once), list, revoke")
    .addHelpText(
      'after',
      `
Scopes: integrations:publish, installations:manage, deliveries:read, deliveries:redeliver,
secrets:manage, tokens:manage, portal:create, audit:read (docs/security.md, "Who may do what").
An organization token grants only scopes it holds itself, and needs tokens:manage.

Examples:
  $ platform tokens create --organization acme --name ci --scope integrations:publish
  $ platform tokens list
  $ platform tokens revoke tok_4f2a9c`,
    );
  const withOrganization = (command: Command) =>
    withHostOptions(
      command.option(
        '--organization <id>',
        "the organization (default: the logged-in token's; the operator must give it)",
      ),
    );

  withOrganization(
    tokens
      .command('create')
      .description('create an organization token; it is printed once')
      .requiredOption('--name <name>', 'what the token is for, e.g. ci or alice-laptop')
      .requiredOption(
        '--scope <scope>',
        'a scope it grants (repeat the flag, or a,b), e.g. integrations:publish',
        collect,
      )
      .option('--expires-in <duration>', 'expires after 90m, 12h, 30d, 2w, ... (default: never)')
      .option('--expires-at <time>', 'expires at this ISO 8601 time (default: never)')
      .option('--json', 'print the created token (with `token`) as JSON'),
  )
    .addHelpText(
      'after',
      `
The token is shown once (the host keeps only its hash): store it where it will be used.

Examples:
  $ platform tokens create --organization acme --name ci --scope integrations:publish --expires-in 90d
  $ platform tokens create --name support --scope deliveries:read --scope deliveries:redeliver
  $ platform tokens create --name ci --scope integrations:publish --json | jq -r .token`,
    )
    .action(
      async (
        options: HostOptions & {
          name: string;
          scope: string[];
          expiresIn?: string;
          expiresAt?: string;
          json?: boolean;
        },
      ) => {
        const expiresAt = expiryOf(options);
        if (options.scope.length === 0) throw new CliError('usage', '--scope is empty.', EXIT.usage);
        const host = connect(context, options);
        const organization = await organizationFor(
          host,
          options.organization,
          `platform tokens create --organization acme --name ${options.name} --scope ${options.scope[0]}`,
        );
        // the host validates the scopes (400 naming the known ones): the list is its own
        const created = await host.call('POST /v1/organizations/{organization}/tokens', {
          params: { organization },
          body: { name: options.name, scopes: options.scope, ...(expiresAt ? { expiresAt } : {}) },
        });
        if (options.json) return printJson(context, created);
        const c = colors(context);
        io.stdout(
          `${c.green('Created')} token "${created.name}" (${created.id}) of organization ${created.organization}\n` +
            `  scopes: ${created.scopes.join(', ')}\n` +
            `  ${describeExpiry(created.expiresAt)}\n\n` +
            `${created.token}\n\n` +
            `${c.yellow('This token is shown once')}: store it now (e.g. in your CI's secrets); the host keeps only its hash.\n` +
            `Use it: platform login --url ${host.target.url} --token <token>\n`,
        );
      },
    );

  withOrganization(
    tokens
      .command('list')
      .description(
        "the organization's tokens (never the tokens themselves), revoked and expired ones included",
      )
      .option('--json', 'print {"tokens"} as JSON'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ platform tokens list\n  $ platform tokens list --organization acme --json',
    )
    .action(async (options: HostOptions & { json?: boolean }) => {
      const host = connect(context, options);
      const organization = await organizationFor(
        host,
        options.organization,
        'platform tokens list --organization acme',
      );
      const page = await host.call('GET /v1/organizations/{organization}/tokens', {
        params: { organization },
      });
      if (options.json) return printJson(context, page);
      if (page.tokens.length === 0) return io.stdout(`No tokens in organization ${organization}.\n`);
      const c = colors(context);
      io.stdout(
        table([
          ['ID', 'NAME', 'SCOPES', 'STATUS', 'EXPIRES', 'LAST USED'],
          ...page.tokens.map((t) => [
            t.id,
            t.name,
            t.scopes.join(','),
            t.status === 'active' ? c.green(t.status) : c.yellow(t.status),
            t.expiresAt ?? 'never',
            t.lastUsedAt ?? '-',
          ]),
        ]),
      );
    });

  withOrganization(
    tokens
      .command('revoke')
      .description('revoke a token: refused at once by this host (within 5 s by the others)')
      .argument('<tokenId>', 'token id (see `platform tokens list`)'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ platform tokens revoke tok_4f2a9c\n  $ platform tokens revoke tok_4f2a9c --organization acme',
    )
    .action(async (tokenId: string, options: HostOptions) => {
      const host = connect(context, options);
      const organization = await organizationFor(
        host,
        options.organization,
        `platform tokens revoke ${tokenId} --organization acme`,
      );
      await host.call('DELETE /v1/organizations/{organization}/tokens/{tokenId}', {
        params: { organization, tokenId },
      });
      io.stdout(`Revoked token ${tokenId} of organization ${organization}\n`);
    });
}
