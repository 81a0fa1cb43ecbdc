import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { hostClient } from '../host/client.js';
import { readLogin, writeLogin } from '../host/config-file.js';
import { principalPhrase, tokenLines, type WhoAmI } from '../host/identity.js';
import { checkUrl } from '../host/target.js';

/**
 * Registers `platform login --token <token> [--url <url>]`: checks the token against the host
 * (`GET /v1/whoami`: the operator, or an organization token with its scopes) and saves both in the config file (mode 0600).
 *
 * @example
 * ```ts
 * registerLogin(program, context); // platform login --url http://127.0.0.1:8080 --token pat_...
 * ```
 */
export function registerLogin(program: Command, context: CommandContext): void {
  const { io } = context;
  program
    .command('login')
    .description('save the host URL and token (operator or organization) for later commands')
    .requiredOption('--token <token>', 'the operator token of the host, or an organization token (pot_…)')
    .option('--url <url>', 'host URL (default: PLATFORM_URL, the saved one, or http://127.0.0.1:8080)')
    .option('--no-verify', 'save without checking the token against the host')
    .addHelpText(
      'after',
      `
The token is checked with GET /v1/whoami, which says who it is: the operator, or an organization
with the token's name, scopes and expiry.

Saved in $XDG_CONFIG_HOME/platform/config.json (or ~/.config/platform/config.json), mode 0600.
Flags (--url, --token) and PLATFORM_URL / PLATFORM_TOKEN still win over it.

Examples:
  $ platform login --token pat_0123456789abcdef
  $ platform login --url https://host.example.com --token pot_3f9a...   an organization token
  $ platform login --url https://host.example.com --token "$(cat .platform/admin-token)"`,
    )
    .action(async (options: { token: string; url?: string; verify: boolean }) => {
      const url = (
        options.url ??
        io.env.PLATFORM_URL ??
        readLogin(io.env).url ??
        'http://127.0.0.1:8080'
      ).replace(/\/+$/, '');
      checkUrl(url, '--url');
      let who: WhoAmI | undefined;
      if (options.verify) {
        const host = hostClient({ url, token: options.token, urlSource: '--url', tokenSource: '--token' });
        who = await host.call('GET /v1/whoami');
      }
      const file = writeLogin(io.env, { url, token: options.token });
      if (!who || who.principal === 'operator') {
        io.stdout(`Logged in to ${url}; saved in ${file}\n`);
        return;
      }
      const lines = [`Logged in to ${url} as ${principalPhrase(who)}; saved in ${file}`, ...tokenLines(who)];
      io.stdout(`${lines.join('\n')}\n`);
    });
}
