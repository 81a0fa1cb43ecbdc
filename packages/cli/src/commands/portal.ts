import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { describeExpiry, organizationFor } from '../host/identity.js';
import type { HostFlags } from '../host/target.js';
import { connect, printJson, registerRemoval, withHostOptions } from './shared.js';

/** The longest portal session the host opens, in minutes (a day). */
const MAX_TTL_MINUTES = 24 * 60;

/**
 * `--ttl <minutes>` as a whole number from 1 to 1440; a usage error otherwise.
 *
 * @example
 * ```ts
 * ttlMinutes('30'); // 30
 * ```
 */
export function ttlMinutes(value: string): number {
  const minutes = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_TTL_MINUTES) {
    throw new CliError(
      'usage',
      `--ttl "${value}": expected whole minutes from 1 to ${MAX_TTL_MINUTES}, e.g. --ttl 30.`,
      EXIT.usage,
    );
  }
  return minutes;
}

type OpenOptions = HostFlags & { installation?: string; organization?: string; ttl?: string; json?: boolean };

/**
 * Registers `platform portal open` (a subscriber portal link for one webhook installation or every one
 * of an organization: `POST /v1/portal/sessions`) and `platform portal revoke <sessionId>`.
 *
 * @example
 * ```ts
 * registerPortal(program, context); // platform portal open --installation inst_1 --ttl 30
 * ```
 */
export function registerPortal(program: Command, context: CommandContext): void {
  const { io } = context;
  const portal = program
    .command('portal')
    .description('subscriber portal links: open one for a webhook installation or an organization, revoke it')
    .addHelpText(
      'after',
      `
The portal shows a subscriber the deliveries of their webhooks (and lets them redeliver, test and
rotate the secret) without a token of yours: the link carries a session valid for minutes.

Examples:
  $ platform portal open --installation inst_4f2a9c
  $ platform portal open --organization acme --ttl 60
  $ platform portal revoke pps_7d1e0b`,
    );

  withHostOptions(
    portal
      .command('open')
      .description('open a portal session and print its link and expiry')
      .option('--installation <id>', 'one webhook installation')
      .option(
        '--organization <id>',
        'every webhook installation of the organization (default with an organization token: its own)',
      )
      .option('--ttl <minutes>', 'how long the link works, 1 to 1440 minutes (default 15)')
      .option('--json', 'print {"id", "url", "token", "expiresAt", ...} as JSON'),
  )
    .addHelpText(
      'after',
      `
Anyone with the link can use the portal until it expires: send it to the subscriber only.

Examples:
  $ platform portal open --installation inst_4f2a9c
  $ platform portal open --organization acme --ttl 60 --json`,
    )
    .action(async (options: OpenOptions) => {
      if (options.installation !== undefined && options.organization !== undefined) {
        throw new CliError('usage', 'give --installation or --organization, not both.', EXIT.usage);
      }
      const ttl = options.ttl === undefined ? undefined : ttlMinutes(options.ttl);
      const host = connect(context, options);
      const target =
        options.installation !== undefined
          ? { installation: options.installation }
          : {
              organization: await organizationFor(
                host,
                options.organization,
                'platform portal open --installation <id>` or `platform portal open --organization acme',
              ),
            };
      const session = await host.call('POST /v1/portal/sessions', {
        body: { ...target, ...(ttl === undefined ? {} : { ttlMinutes: ttl }) },
      });
      if (options.json) return printJson(context, session);
      const what = session.installation
        ? `webhook installation ${session.installation}`
        : `every webhook installation of organization ${session.organization ?? ''}`;
      io.stdout(
        `Portal session ${session.id} for ${what}; ${describeExpiry(session.expiresAt)}\n` +
          `${session.url}\n` +
          `Anyone with this link can use the portal until then. Revoke it: platform portal revoke ${session.id}\n`,
      );
    });

  registerRemoval(portal, context, {
    name: 'revoke',
    description: 'revoke a portal session: its link stops working at once',
    argument: ['<sessionId>', 'session id (printed by `platform portal open`)'],
    examples: ['platform portal revoke pps_7d1e0b'],
    remove: async (host, sessionId) => {
      await host.call('DELETE /v1/portal/sessions/{sessionId}', { params: { sessionId } });
      return `Revoked portal session ${sessionId}`;
    },
  });
}
