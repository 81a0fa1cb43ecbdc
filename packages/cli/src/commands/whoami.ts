import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { removeLogin } from '../host/config-file.js';
import { describeExpiry, principalPhrase, tokenLines } from '../host/identity.js';
import { connect, printJson, withHostOptions } from './shared.js';

/** A token as shown on screen: its first 8 and last 4 characters. */
export function maskToken(token: string): string {
  return token.length <= 16 ? `${token.slice(0, 4)}…` : `${token.slice(0, 8)}…${token.slice(-4)}`;
}

/**
 * Registers `platform whoami` (which host and token the commands use, checked against the host) and
 * `platform logout` (forgets what `platform login` saved).
 *
 * @example
 * ```ts
 * registerWhoami(program, context); // platform whoami
 * ```
 */
export function registerWhoami(program: Command, context: CommandContext): void {
  const { io } = context;
  withHostOptions(
    program
      .command('whoami')
      .description(
        'show who the token is (operator or organization, token name, scopes, expiry) and the host, checked',
      )
      .option(
        '--json',
        'print {"url", "urlSource", "token", "tokenSource", "principal", "organization", "tokenName", "scopes", "expiresAt", ...} as JSON',
      ),
  )
    .addHelpText('after', '\nExamples:\n  $ platform whoami\n  $ platform whoami --json')
    .action(async (options: { url?: string; token?: string; json?: boolean }) => {
      const host = connect(context, options);
      const who = await host.call('GET /v1/whoami');
      const { integrations } = await host.call('GET /v1/integrations');
      const { url, urlSource, tokenSource } = host.target;
      const token = maskToken(host.target.token);
      if (options.json) {
        return printJson(context, {
          url,
          urlSource,
          token,
          tokenSource,
          principal: who.principal,
          organization: who.organization?.id ?? null,
          organizationName: who.organization?.name ?? null,
          tokenId: who.token?.id ?? null,
          tokenName: who.token?.name ?? null,
          scopes: who.token?.scopes ?? null,
          expiresAt: who.token?.expiresAt ?? who.portal?.expiresAt ?? null,
          installation: who.installation,
          hostVersion: who.host.version,
          integrations: integrations.length,
        });
      }
      const published = `${integrations.length} integration(s) ${who.principal === 'operator' ? 'published' : 'visible'}`;
      if (who.principal === 'operator') {
        io.stdout(
          `Operator of ${url} (from ${urlSource})\n  token ${token} (from ${tokenSource}), accepted; ${published}\n`,
        );
        return;
      }
      const phrase = principalPhrase(who);
      const lines = [
        `${phrase[0]?.toUpperCase()}${phrase.slice(1)} on ${url} (from ${urlSource})`,
        `  token ${token} (from ${tokenSource}), accepted; ${published}`,
        ...tokenLines(who),
        ...(who.portal ? [`  ${describeExpiry(who.portal.expiresAt)}`] : []),
      ];
      io.stdout(`${lines.join('\n')}\n`);
    });

  program
    .command('logout')
    .description('forget the host URL and token saved by `platform login`')
    .addHelpText(
      'after',
      '\nPLATFORM_URL / PLATFORM_TOKEN and a running `platform dev` still apply.\n\nExamples:\n  $ platform logout',
    )
    .action(() => {
      const file = removeLogin(io.env);
      io.stdout(
        file ? `Logged out; removed the login from ${file}\n` : 'Not logged in; nothing to remove.\n',
      );
    });
}
