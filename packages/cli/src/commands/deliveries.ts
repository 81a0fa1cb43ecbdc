import type { DeliveryState } from '@platform/host/api';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import type { DeliveryView, HostClient } from '../host/client.js';
import { formatAttempt } from '../host/format.js';
import { colors, connect, printJson, withHostOptions } from './shared.js';

interface Flags {
  installation?: string;
  json?: boolean;
  url?: string;
  token?: string;
}

/**
 * The webhook installation a `deliveries` command is about: `--installation`, else the only webhook
 * installation of the place of the running `platform dev` (its own installation is not a webhook),
 * else the only one on the host. Otherwise a usage error listing the candidates to pass.
 */
async function webhookInstallation(
  context: CommandContext,
  host: HostClient,
  explicit: string | undefined,
): Promise<string> {
  if (explicit) return explicit;
  const session = host.target.session;
  const place: { site?: string; space?: string } = session?.site
    ? { site: session.site }
    : session?.space
      ? { space: session.space }
      : {};
  const { installations } = await host.call('GET /v1/installations', {
    query: { integration: 'webhook', ...place },
  });
  const where = place.site ? ` in site ${place.site}` : place.space ? ` in space ${place.space}` : '';
  const [only] = installations;
  if (installations.length === 1 && only) {
    context.io.stderr(`Using webhook installation ${only.id}${where} (${String(only.configuration.url)})\n`);
    return only.id;
  }
  if (installations.length === 0) {
    throw new CliError(
      'usage',
      `no webhook installation${where} on ${host.target.url}${session ? ` (the installation of \`platform dev\`, ${session.installationId}, is of ${session.integration}, which has no deliveries)` : ''}; create one with \`platform listen --forward-to <url>\` or pass --installation <id>.`,
      EXIT.usage,
    );
  }
  throw new CliError(
    'usage',
    `${installations.length} webhook installations${where}; pass --installation with one of:\n${installations
      .map(
        (i) =>
          `  ${i.id}  ${i.space ? `space ${i.space}` : i.site ? `site ${i.site}` : 'organization'} -> ${String(i.configuration.url)}`,
      )
      .join('\n')}`,
    EXIT.usage,
  );
}

function printDelivery(context: CommandContext, d: DeliveryView, full: boolean): void {
  const c = colors(context);
  const state =
    d.state === 'succeeded'
      ? c.green(d.state)
      : d.state === 'queued' || d.state === 'running'
        ? c.yellow(d.state)
        : c.red(d.state);
  // A retry may be due hours later (retry schedules): the list says when, not only `show`.
  const next = d.held
    ? ' held (endpoint disabled)'
    : !full && d.nextAttemptAt
      ? ` next attempt at ${d.nextAttemptAt}`
      : '';
  context.io.stdout(`${c.bold(d.id)} ${d.eventType} ${d.eventId} ${state} ${c.dim(d.createdAt)}${next}\n`);
  if (!full) return;
  for (const attempt of d.attempts) context.io.stdout(`  ${formatAttempt(d, attempt, c)}`);
  if (d.nextAttemptAt) context.io.stdout(`  next attempt at ${d.nextAttemptAt}\n`);
  context.io.stdout(`  payload: ${JSON.stringify(d.payload)}\n`);
}

/**
 * Registers `platform deliveries list|show|redeliver`: the deliveries of a webhook installation.
 *
 * @example
 * ```ts
 * registerDeliveries(program, context); // platform deliveries redeliver dlv_1 --installation inst_1
 * ```
 */
export function registerDeliveries(program: Command, context: CommandContext): void {
  const deliveries = program
    .command('deliveries')
    .description('list, show and redeliver the deliveries of a webhook installation')
    .addHelpText(
      'after',
      `
Examples:
  $ platform deliveries list --installation inst_4f2a9c --state failed
  $ platform deliveries show dlv_1 --installation inst_4f2a9c
  $ platform deliveries redeliver dlv_1 --installation inst_4f2a9c
  $ platform deliveries redeliver --all-failed --since 2026-11-22T10:00:00Z --installation inst_4f2a9c`,
    );

  withHostOptions(
    deliveries
      .command('list', { isDefault: true })
      .description('newest deliveries first, with their state')
      .option('--installation <id>', 'webhook installation id')
      .option('--state <state>', 'only this state: queued, running, succeeded, failed, exhausted, cancelled')
      .option('--limit <n>', 'at most this many', '20')
      .option('--json', 'print {"deliveries", "nextCursor", "endpoint"} as JSON'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ platform deliveries list --installation inst_4f2a9c --state failed --json',
    )
    .action(async (options: Flags & { state?: string; limit: string }) => {
      const host = connect(context, options);
      const id = await webhookInstallation(context, host, options.installation);
      const page = await host.call('GET /v1/installations/{id}/deliveries', {
        params: { id },
        // The host checks both and answers 400 naming the allowed values.
        query: { limit: options.limit, ...(options.state ? { state: options.state as DeliveryState } : {}) },
      });
      if (options.json) return printJson(context, page);
      if (page.endpoint?.slow) {
        context.io.stdout(
          `Endpoint slow: an attempt to it is running past 500 ms, or two did within the last minute, so at most ${page.endpoint.maxInFlight} of its deliveries are in flight at once (the others wait in the queue).\n`,
        );
      }
      if (page.endpoint?.disabled) {
        context.io.stdout(
          `Endpoint disabled${page.endpoint.disabledAt ? ` since ${page.endpoint.disabledAt}` : ''}: every delivery to it was exhausted for too long; nothing is sent to it and ${page.endpoint.held} new deliveries are kept (held). Enable it in the dashboard or the subscriber portal, or with POST /v1/installations/${id}/endpoint/enable.\n`,
        );
      }
      if (page.endpoint && page.endpoint.filtered > 0) {
        context.io.stdout(
          `Filtered out: ${page.endpoint.filtered} event(s) of a selected type did not pass this endpoint's filter since the host started (no delivery made).\n`,
        );
      }
      if (page.deliveries.length === 0) context.io.stdout('No deliveries.\n');
      for (const d of page.deliveries) printDelivery(context, d, false);
    });

  withHostOptions(
    deliveries
      .command('show')
      .description('one delivery with every attempt and its payload')
      .argument('<deliveryId>', 'delivery id')
      .option('--installation <id>', 'webhook installation id')
      .option('--json', 'print the delivery as JSON'),
  )
    .addHelpText('after', '\nExamples:\n  $ platform deliveries show dlv_1 --installation inst_4f2a9c')
    .action(async (deliveryId: string, options: Flags) => {
      const host = connect(context, options);
      const id = await webhookInstallation(context, host, options.installation);
      const delivery = await host.call('GET /v1/installations/{id}/deliveries/{deliveryId}', {
        params: { id, deliveryId },
      });
      if (options.json) return printJson(context, delivery);
      printDelivery(context, delivery, true);
    });

  withHostOptions(
    deliveries
      .command('redeliver')
      .description('send a finished delivery again (new attempt series), or every failed one in a range')
      .argument('[deliveryId]', 'delivery id (or use --all-failed)')
      .option('--installation <id>', 'webhook installation id')
      .option('--all-failed', 'redeliver every failed or exhausted delivery (of --since/--until)')
      .option('--since <time>', 'ISO time or Unix ms (with --all-failed)')
      .option('--until <time>', 'ISO time or Unix ms (with --all-failed)')
      .option('--json', 'print the answer as JSON'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ platform deliveries redeliver dlv_1 --installation inst_4f2a9c\n  $ platform deliveries redeliver --all-failed --since 2026-11-22T10:00:00Z',
    )
    .action(
      async (
        deliveryId: string | undefined,
        options: Flags & { allFailed?: boolean; since?: string; until?: string },
      ) => {
        if (!deliveryId === !options.allFailed) {
          throw new CliError('usage', 'give a delivery id or --all-failed (not both).', EXIT.usage);
        }
        const host = connect(context, options);
        const id = await webhookInstallation(context, host, options.installation);
        if (deliveryId) {
          const delivery = await host.call('POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver', {
            params: { id, deliveryId },
          });
          if (options.json) return printJson(context, delivery);
          context.io.stdout(`Redelivering ${delivery.id} (series ${delivery.series})\n`);
          return;
        }
        const answer = await host.call('POST /v1/installations/{id}/deliveries/redeliver', {
          params: { id },
          body: {
            ...(options.since ? { since: options.since } : {}),
            ...(options.until ? { until: options.until } : {}),
          },
        });
        if (options.json) return printJson(context, answer);
        context.io.stdout(
          `Redelivering ${answer.redelivered} deliver${answer.redelivered === 1 ? 'y' : 'ies'}\n`,
        );
      },
    );
}
