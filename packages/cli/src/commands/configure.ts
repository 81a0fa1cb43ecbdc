import { HOST_EVENT } from '@platform/events/catalogue';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { describeInstallation } from './install.js';
import { connect, installationOf, parseAssignments, printJson, withHostOptions } from './shared.js';

/**
 * Registers `platform configure key=value...`: edits an installation's configuration (JSON merge
 * patch; `key=null` deletes) and prints the new status.
 *
 * @example
 * ```ts
 * registerConfigure(program, context); // platform configure channel=general max_greetings=5
 * ```
 */
export function registerConfigure(program: Command, context: CommandContext): void {
  withHostOptions(
    program
      .command('configure')
      .description(
        `edit an installation's configuration (fires ${HOST_EVENT.installationSetup}, re-validates the status)`,
      )
      .argument('<assignments...>', 'key=value pairs (JSON values are parsed; key=null deletes the key)')
      .option('--installation <id>', 'installation id (default: the one of the running `platform dev`)')
      .option('--json', 'print the installation as JSON'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ platform configure channel=general
  $ platform configure max_greetings=5 enabled=false --installation inst_4f2a9c
  $ platform configure old_key=null`,
    )
    .action(
      async (
        assignments: string[],
        options: { installation?: string; json?: boolean; url?: string; token?: string },
      ) => {
        const patch = parseAssignments(assignments);
        if (Object.keys(patch).length === 0) throw new CliError('usage', 'nothing to configure.', EXIT.usage);
        const host = connect(context, options);
        const id = installationOf(host, options.installation);
        const installation = await host.call('PATCH /v1/installations/{id}', {
          params: { id },
          body: { configuration: patch },
        });
        if (options.json) return printJson(context, installation);
        describeInstallation(context, installation);
      },
    );
}
