import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

interface StatusOptions {
  json?: boolean;
  url?: string;
  token?: string;
}

/** Unfinished jobs of one kind, as `GET /v1/status` answers them. */
interface QueueState {
  queued: number;
  due: number;
  held: number;
  running: number;
  oldestDueAgeSeconds: number;
}

/** `GET /v1/status`. */
export interface HostStatusView {
  version: string;
  startedAt: string;
  deliveries: QueueState;
  invocations: QueueState;
  slowEndpoints: Array<{
    installationId: string;
    integration: string;
    target: string;
    targetId: string | null;
    origin: string | null;
  }>;
}

function queueLine(name: string, q: QueueState, c: ReturnType<typeof colors>): string {
  const behind =
    q.oldestDueAgeSeconds > 0 ? c.yellow(`${q.oldestDueAgeSeconds.toFixed(1)} s behind`) : 'not behind';
  const held = q.held ? ` (${q.held} held for slow endpoints)` : '';
  return `${name.padEnd(12)} ${q.queued} waiting${held}, ${q.due} due, ${q.running} in flight, ${behind}\n`;
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
      const status = await host.request<HostStatusView>('GET', '/v1/status');
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
        out(
          `  ${c.yellow(e.origin ?? '?')}  ${e.installationId} (${e.integration} in ${e.target}${e.targetId ? ` ${e.targetId}` : ''})\n`,
        );
      }
    });
}
