import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import type { HostClient, InstallationView } from '../host/client.js';
import { followDeliveries } from '../host/follow.js';
import { formatAttempt } from '../host/format.js';
import { colors, connect, untilInterrupted, withHostOptions } from './shared.js';

/** Webhook event types by place (PRODUCT "Webhook integration"). */
export const WEBHOOK_EVENTS = {
  space: ['space_content_updated'],
  site: ['site_view', 'page_feedback'],
} as const;

interface ListenOptions {
  forwardTo: string;
  space?: string;
  site?: string;
  events?: string;
  keep?: boolean;
  json?: boolean;
  url?: string;
  token?: string;
}

/** The webhook configuration for a place and a list of event types (all of the place by default). */
export function webhookConfiguration(url: string, place: 'space' | 'site', events: string | undefined) {
  const allowed: readonly string[] = WEBHOOK_EVENTS[place];
  const chosen = events
    ? events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
    : [...allowed];
  const wrong = chosen.filter((e) => !allowed.includes(e));
  if (wrong.length > 0 || chosen.length === 0) {
    throw new CliError(
      'usage',
      `--events for a ${place} must be among ${allowed.join(', ')}; got ${wrong.join(', ') || 'none'}.`,
      EXIT.usage,
    );
  }
  return { url, ...Object.fromEntries(chosen.map((e) => [e, true])) };
}

async function uninstall(host: HostClient, id: string): Promise<void> {
  await host.request('DELETE', `/v1/installations/${encodeURIComponent(id)}`);
}

/**
 * Registers `platform listen --forward-to <url>`: a webhook installation pointing at a local
 * receiver, its signing secret, and every delivery attempt as it happens (like `stripe listen`).
 *
 * @example
 * ```ts
 * registerListen(program, context); // platform listen --forward-to http://localhost:3000/webhook
 * ```
 */
export function registerListen(program: Command, context: CommandContext): void {
  const { io } = context;
  withHostOptions(
    program
      .command('listen')
      .description(
        'send real signed webhook deliveries to a local URL and show each attempt (Ctrl+C to stop)',
      )
      .requiredOption('--forward-to <url>', 'the receiver to deliver to, e.g. http://localhost:3000/webhook')
      .option('--space <id>', 'deliver the events of this space (default: space_dev)')
      .option('--site <id>', 'deliver the events of this site')
      .option('--events <types>', 'comma-separated event types (default: all of the space or site)')
      .option('--keep', 'keep the webhook installation when stopping (default: uninstall it)')
      .option('--json', 'print JSON lines: first {installationId, secret}, then one per attempt'),
  )
    .addHelpText(
      'after',
      `
The host must allow private targets for a local URL (PLATFORM_ALLOW_PRIVATE_TARGETS=1; the host of
\`platform dev\` does). Send events with \`platform trigger\` in another terminal.

Examples:
  $ platform listen --forward-to http://localhost:3000/webhook
  $ platform listen --forward-to http://localhost:3000/webhook --site site_main --events page_feedback
  $ platform trigger space_content_updated   # in another terminal`,
    )
    .action(async (options: ListenOptions) => {
      if (options.space && options.site)
        throw new CliError('usage', 'pass --space or --site, not both.', EXIT.usage);
      try {
        new URL(options.forwardTo);
      } catch {
        throw new CliError('usage', `--forward-to must be a URL, got "${options.forwardTo}".`, EXIT.usage);
      }
      const place = options.site ? 'site' : 'space';
      const configuration = webhookConfiguration(options.forwardTo, place, options.events);
      const host = connect(context, options);
      const where = options.site ?? options.space ?? host.target.session?.space ?? 'space_dev';
      const installation = await host.request<InstallationView>('POST', '/v1/installations', {
        integration: 'webhook',
        [place]: where,
        configuration,
      });
      if (installation.status !== 'active') {
        const reasons = installation.configurationErrors.map((e) => `${e.key}: ${e.message}`).join('; ');
        await uninstall(host, installation.id).catch(() => undefined);
        throw new CliError(
          'webhook_refused',
          `the host at ${host.target.url} refused to deliver to ${options.forwardTo} (${reasons || installation.status}). A local URL needs a host started with PLATFORM_ALLOW_PRIVATE_TARGETS=1, as \`platform dev\` does.`,
          EXIT.failure,
        );
      }
      const { secret } = await host.request<{ secret: string }>(
        'GET',
        `/v1/installations/${encodeURIComponent(installation.id)}/webhook-secret`,
      );
      const c = colors(context);
      if (options.json) io.stdout(`${JSON.stringify({ installationId: installation.id, secret })}\n`);
      else {
        io.stdout(
          `Ready! Delivering ${Object.keys(configuration)
            .filter((k) => k !== 'url')
            .join(', ')} of ${place} ${where} to ${options.forwardTo}\n` +
            `Your webhook signing secret is ${c.bold(secret)} (installation ${installation.id}; Ctrl+C to stop)\n`,
        );
      }
      const controller = new AbortController();
      const stopped = untilInterrupted().then(() => controller.abort());
      await followDeliveries(host, installation.id, {
        signal: controller.signal,
        onAttempt: (delivery, attempt) =>
          io.stdout(
            options.json
              ? `${JSON.stringify({ deliveryId: delivery.id, eventId: delivery.eventId, eventType: delivery.eventType, ...attempt })}\n`
              : formatAttempt(delivery, attempt, c),
          ),
        onError: (error) => io.stderr(`warning: ${(error as Error).message}\n`),
      });
      await stopped;
      if (options.keep) {
        io.stderr(`Kept webhook installation ${installation.id}\n`);
        return;
      }
      await uninstall(host, installation.id);
      io.stderr(`Removed webhook installation ${installation.id}\n`);
    });
}
