import { resolve } from 'node:path';
import { WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import type { Command } from 'commander';
import { readValidManifest } from '../build/build-integration.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import type { InstallationView } from '../host/client.js';
import { colors, connect, parseAssignments, printJson, withHostOptions } from './shared.js';

interface InstallOptions {
  space?: string;
  site?: string;
  organization?: string;
  integration?: string;
  set: string[];
  json?: boolean;
  url?: string;
  token?: string;
}

/** Prints an installation's status, configuration problems and public endpoint. */
export function describeInstallation(context: CommandContext, installation: InstallationView): void {
  const c = colors(context);
  const where = installation.space
    ? `space ${installation.space}`
    : installation.site
      ? `site ${installation.site}`
      : 'the organization';
  const status = installation.status === 'active' ? c.green('active') : c.yellow(installation.status);
  context.io.stdout(
    `Installation ${c.bold(installation.id)} of ${installation.integration} in ${where}: ${status}\n`,
  );
  for (const problem of installation.configurationErrors) {
    context.io.stdout(`  ${c.yellow('!')} configuration.${problem.key}: ${problem.message}\n`);
  }
  context.io.stdout(`  public endpoint: ${installation.urls.publicEndpoint}\n`);
}

/**
 * Registers `platform install`: installs an integration (by default the one of the manifest in the
 * current folder) into a space, a site or the organization.
 *
 * @example
 * ```ts
 * registerInstall(program, context); // platform install --space space_docs --set channel=general
 * ```
 */
export function registerInstall(program: Command, context: CommandContext): void {
  const { io } = context;
  withHostOptions(
    program
      .command('install')
      .description('install an integration into a space, a site or the organization')
      .option('--space <id>', 'install into this space')
      .option('--site <id>', 'install into this site')
      .option('--organization <id>', 'install for the organization')
      .option('--integration <name>', 'integration name (default: the name in ./platform-manifest.yaml)')
      .option(
        '--set <key=value>',
        'configuration value (repeatable; JSON values are parsed)',
        (v, all: string[]) => [...all, v],
        [],
      )
      .option('--json', 'print the installation as JSON'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ platform install --space space_docs
  $ platform install --integration webhook --site site_main --set url=https://example.com/hook --set ${WEBHOOK_EVENT_TYPES_BY_PLACE.site[0]}=true
  $ platform install --organization org_1 --json`,
    )
    .action(async (options: InstallOptions) => {
      const places = [options.space, options.site, options.organization].filter(Boolean);
      if (places.length !== 1) {
        throw new CliError(
          'usage',
          'say where to install: exactly one of --space, --site or --organization.',
          EXIT.usage,
        );
      }
      const integration = options.integration ?? readValidManifest(resolve(io.cwd, '.')).manifest.name;
      const host = connect(context, options);
      const installation = await host.call('POST /v1/installations', {
        body: {
          integration,
          ...(options.space ? { space: options.space } : {}),
          ...(options.site ? { site: options.site } : {}),
          ...(options.organization ? { organization: options.organization } : {}),
          configuration: parseAssignments(options.set),
        },
      });
      if (options.json) return printJson(context, installation);
      describeInstallation(context, installation);
    });
}
