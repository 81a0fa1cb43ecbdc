import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { followLogs } from '../host/follow.js';
import { formatInvocation } from '../host/format.js';
import { colors, connect, installationOf, untilInterrupted, withHostOptions } from './shared.js';

/** Parses `30s`, `10m`, `2h` or milliseconds into milliseconds. */
export function parseAge(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value.trim());
  if (!match)
    throw new CliError('usage', `--since must look like 30s, 10m or 2h; got "${value}".`, EXIT.usage);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 'ms'] ?? 1;
  return Number(match[1]) * factor;
}

/**
 * Registers `platform tail`: follows the invocation logs of an installation until Ctrl+C.
 *
 * @example
 * ```ts
 * registerTail(program, context); // platform tail --installation inst_1 --since 10m
 * ```
 */
export function registerTail(program: Command, context: CommandContext): void {
  withHostOptions(
    program
      .command('tail')
      .description("follow an installation's invocations and their log lines (Ctrl+C to stop)")
      .option('--installation <id>', 'installation id (default: the one of the running `platform dev`)')
      .option('--since <age>', 'also show invocations of the last 30s / 10m / 2h', '0')
      .option('--json', 'print one JSON object per invocation (JSON lines)'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ platform tail
  $ platform tail --installation inst_4f2a9c --since 10m
  $ platform tail --json | jq .lines`,
    )
    .action(
      async (options: {
        installation?: string;
        since: string;
        json?: boolean;
        url?: string;
        token?: string;
      }) => {
        const host = connect(context, options);
        const id = installationOf(host, options.installation);
        await host.call('GET /v1/installations/{id}', { params: { id } });
        const c = colors(context);
        const controller = new AbortController();
        if (!options.json)
          context.io.stderr(`Following invocations of ${id} on ${host.target.url} (Ctrl+C to stop)\n`);
        const stop = untilInterrupted().then(() => controller.abort());
        await followLogs(
          host,
          id,
          (invocation) =>
            context.io.stdout(
              options.json ? `${JSON.stringify(invocation)}\n` : formatInvocation(invocation, c),
            ),
          {
            signal: controller.signal,
            since: Date.now() - parseAge(options.since),
            onError: (error) => context.io.stderr(`warning: ${(error as Error).message}\n`),
          },
        );
        await stop;
      },
    );
}
