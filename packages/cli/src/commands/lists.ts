import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { HostFlags } from '../host/target.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

/** Left-aligned columns of text rows. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map(
      (row) =>
        `${row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

/**
 * Registers `platform integrations list` and `platform installations list`.
 *
 * @example
 * ```ts
 * registerLists(program, context); // platform installations list --integration webhook
 * ```
 */
export function registerLists(program: Command, context: CommandContext): void {
  const { io } = context;
  const integrations = program
    .command('integrations')
    .description('the integrations published on the host')
    .addHelpText('after', '\nExamples:\n  $ platform integrations list');
  withHostOptions(
    integrations
      .command('list', { isDefault: true })
      .description('latest version of each published integration')
      .option('--json', 'print {"integrations"} as JSON'),
  )
    .addHelpText('after', '\nExamples:\n  $ platform integrations list --json')
    .action(async (options: HostFlags & { json?: boolean }) => {
      const host = connect(context, options);
      const page = await host.call('GET /v1/integrations');
      if (options.json) return printJson(context, page);
      if (page.integrations.length === 0) return io.stdout('No integrations published.\n');
      io.stdout(
        table([
          ['NAME', 'VERSION', 'TITLE', 'SCOPES', 'PUBLISHED'],
          ...page.integrations.map((i) => [
            i.name,
            i.version,
            i.title,
            i.scopes.join(',') || '-',
            i.createdAt,
          ]),
        ]),
      );
    });

  const installations = program
    .command('installations')
    .description('the installations on the host')
    .addHelpText('after', '\nExamples:\n  $ platform installations list --space space_dev');
  withHostOptions(
    installations
      .command('list', { isDefault: true })
      .description('installations, filtered by integration, space or site')
      .option('--integration <name>', 'only of this integration')
      .option('--space <id>', 'only in this space')
      .option('--site <id>', 'only in this site')
      .option('--json', 'print {"installations"} as JSON'),
  )
    .addHelpText('after', '\nExamples:\n  $ platform installations list --integration webhook --json')
    .action(
      async (
        options: HostFlags & { json?: boolean; integration?: string; space?: string; site?: string },
      ) => {
        const host = connect(context, options);
        const page = await host.call('GET /v1/installations', {
          query: {
            ...(options.integration ? { integration: options.integration } : {}),
            ...(options.space ? { space: options.space } : {}),
            ...(options.site ? { site: options.site } : {}),
          },
        });
        if (options.json) return printJson(context, page);
        if (page.installations.length === 0) return io.stdout('No installations.\n');
        const c = colors(context);
        io.stdout(
          table([
            ['ID', 'INTEGRATION', 'WHERE', 'STATUS'],
            ...page.installations.map((i) => [
              i.id,
              i.integration,
              i.space
                ? `space ${i.space}`
                : i.site
                  ? `site ${i.site}`
                  : `organization ${i.organization ?? ''}`,
              i.status === 'active' ? c.green(i.status) : c.yellow(i.status),
            ]),
          ]),
        );
      },
    );
}
