import type { Command } from 'commander';
import { readValidManifest } from '../build/build-integration.js';
import type { CommandContext } from '../context.js';
import type { HostFlags } from '../host/target.js';
import { connect, registerRemoval, withHostOptions } from './shared.js';

/**
 * Registers `platform uninstall <installationId>` (`DELETE /v1/installations/{id}`) and
 * `platform unpublish [name]` (`DELETE /v1/integrations/{name}`: every version, refused while
 * installed).
 *
 * @example
 * ```ts
 * registerUninstall(program, context); // platform uninstall inst_4f2a9c
 * ```
 */
export function registerUninstall(program: Command, context: CommandContext): void {
  const { io } = context;
  registerRemoval(program, context, {
    name: 'uninstall',
    description: 'remove an installation (its queued events and deliveries are cancelled)',
    argument: ['<installationId>', 'installation id (see `platform installations list`)'],
    examples: ['platform uninstall inst_4f2a9c'],
    remove: async (host, id) => {
      await host.call('DELETE /v1/installations/{id}', { params: { id } });
      return `Uninstalled ${id}`;
    },
  });

  withHostOptions(
    program
      .command('unpublish')
      .description('remove every version of an integration from the host (uninstall it everywhere first)')
      .argument('[name]', "integration name (default: the manifest's in the current folder)"),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ platform unpublish\n  $ platform unpublish hello-world --url http://127.0.0.1:8080 --token "$PLATFORM_TOKEN"',
    )
    .action(async (name: string | undefined, options: HostFlags) => {
      const integration = name ?? readValidManifest(io.cwd).manifest.name;
      const host = connect(context, options);
      await host.call('DELETE /v1/integrations/{name}', { params: { name: integration } });
      io.stdout(`Unpublished ${integration} (every version)\n`);
    });
}
