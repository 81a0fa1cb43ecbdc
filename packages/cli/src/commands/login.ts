import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { hostClient } from '../host/client.js';
import { readLogin, writeLogin } from '../host/config-file.js';
import { checkUrl } from '../host/target.js';

/**
 * Registers `platform login --token <token> [--url <url>]`: checks the token against the host and
 * saves both in the config file (mode 0600).
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
    .description('save the host URL and operator token for later commands')
    .requiredOption('--token <token>', 'operator token of the host')
    .option('--url <url>', 'host URL (default: PLATFORM_URL, the saved one, or http://127.0.0.1:8080)')
    .option('--no-verify', 'save without checking the token against the host')
    .addHelpText(
      'after',
      `
Saved in $XDG_CONFIG_HOME/platform/config.json (or ~/.config/platform/config.json), mode 0600.
Flags (--url, --token) and PLATFORM_URL / PLATFORM_TOKEN still win over it.

Examples:
  $ platform login --token pat_0123456789abcdef
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
      if (options.verify) {
        const host = hostClient({ url, token: options.token, urlSource: '--url', tokenSource: '--token' });
        await host.call('GET /v1/integrations');
      }
      const file = writeLogin(io.env, { url, token: options.token });
      io.stdout(`Logged in to ${url}; saved in ${file}\n`);
    });
}
