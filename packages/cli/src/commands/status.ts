import { describeQueue, slowEndpointPlace } from '@platform/api-client';
import type { QueueState } from '@platform/host/api';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

interface StatusOptions {
  json?: boolean;
  url?: string;
  token?: string;
}

function queueLine(name: string, q: QueueState, c: ReturnType<typeof colors>): string {
  const line = describeQueue(q);
  return `${name.padEnd(12)} ${q.oldestDueAgeSeconds > 0 ? c.yellow(line) : line}\n`;
}

/**
 * Registers `platform status`: the host at a glance (`GET /v1/status`, operator token): deliveries and
 * integration events waiting, due, in flight and how far behind; the slow webhook endpoints.
 *
 * @example
 * ```ts
 * registerStatus(program, context); // platform status --json
 * ```
 */
export function registerStatus(program: Command, context: CommandContext): void {
  withHostOptions(
    program
      .command('status')
      .description('the host at a glance: queues, how far behind, slow webhook endpoints')
      .option('--json', 'print the status as JSON'),
  )
    .addHelpText(
      'after',
      `
For Prometheus, scrape GET /metrics (PLATFORM_METRICS_TOKEN).

Examples:
  $ platform status
  $ platform status --json`,
    )
    .action(async (options: StatusOptions) => {
      const host = connect(context, options);
      const status = await host.call('GET /v1/status');
      if (options.json) return printJson(context, status);
      const c = colors(context);
      const out = context.io.stdout;
      out(`Host ${host.target.url} (version ${status.version}, up since ${status.startedAt})\n`);
      out(queueLine('Deliveries', status.deliveries, c));
      out(queueLine('Invocations', status.invocations, c));
      if (status.slowEndpoints.length === 0) {
        out(`Slow endpoints: ${c.green('none')}\n`);
        return;
      }
      out(`Slow endpoints (${status.slowEndpoints.length}): each at most its share of delivery slots\n`);
      for (const e of status.slowEndpoints) {
        out(`  ${c.yellow(e.origin ?? '?')}  ${e.installationId} (${slowEndpointPlace(e)})\n`);
      }
    });
}
