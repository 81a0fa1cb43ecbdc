import { WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, HostError } from '../errors.js';
import type { HostClient, InstallationView } from '../host/client.js';
import { followDeliveries } from '../host/follow.js';
import { attemptNote, formatAttempt, stateNote } from '../host/format.js';
import { type HeaderProxy, parseHeaders, startHeaderProxy } from '../host/header-proxy.js';
import { readListen, writeListen } from '../host/listen-state.js';
import { colors, connect, untilInterrupted, withHostOptions } from './shared.js';

/** Webhook event types by place (docs/events.md): the event catalogue's. */
export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES_BY_PLACE;

interface ListenOptions {
  forwardTo: string;
  space?: string;
  site?: string;
  events?: string;
  keep?: boolean;
  forget?: boolean;
  headers?: string;
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
  await host.call('DELETE /v1/installations/{id}', { params: { id } });
}

/**
 * The webhook installation of an earlier `platform listen` to the same host and forward URL, brought
 * up to date (URL, events) and resumed; undefined when there is none or it no longer fits (removed,
 * another place), so a new one is made.
 */
async function reuse(
  host: HostClient,
  id: string,
  place: { space?: string; site?: string },
  configuration: Record<string, unknown>,
): Promise<InstallationView | undefined> {
  let existing: InstallationView;
  try {
    existing = await host.call('GET /v1/installations/{id}', { params: { id } });
  } catch (error) {
    if (error instanceof HostError && error.status === 404) return undefined;
    throw error;
  }
  if (existing.integration !== 'webhook' || existing.space !== place.space || existing.site !== place.site) {
    return undefined;
  }
  // Selects exactly the chosen events: the others of the place are switched off.
  const events = Object.fromEntries(
    Object.keys(existing.configuration)
      .filter((k) => k !== 'url')
      .map((k) => [k, null]),
  );
  let updated = await host.call('PATCH /v1/installations/{id}', {
    params: { id },
    body: { configuration: { ...events, ...configuration } },
  });
  if (updated.status === 'paused') {
    updated = await host.call('POST /v1/installations/{id}/resume', { params: { id } });
  }
  return updated;
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
      .option('--headers <list>', 'add headers to each forwarded request: "Name: value, Other: value"')
      .option('--keep', 'leave the webhook installation active when stopping (default: pause it)')
      .option('--forget', 'uninstall the webhook installation when stopping (the next run gets a new secret)')
      .option('--json', 'print JSON lines: first {installationId, secret}, then one per attempt'),
  )
    .addHelpText(
      'after',
      `
The host must allow private targets for a local URL (PLATFORM_ALLOW_PRIVATE_TARGETS=1; the host of
\`platform dev\` does). Send events with \`platform trigger\` in another terminal.

One webhook installation (and so one signing secret) per host and --forward-to, kept across runs in
listen.json beside the config file: stopping pauses it, the next run resumes it. --forget removes it.
With --headers, deliveries go through a local forwarder that adds the headers (body untouched).

Examples:
  $ platform listen --forward-to http://localhost:3000/webhook
  $ platform listen --forward-to http://localhost:3000/webhook --site site_main --events ${WEBHOOK_EVENTS.site.at(-1)}
  $ platform listen --forward-to http://localhost:3000/webhook --headers "Authorization: Bearer dev-token"
  $ platform trigger ${WEBHOOK_EVENTS.space[0]}   # in another terminal`,
    )
    .action(async (options: ListenOptions) => {
      if (options.space && options.site)
        throw new CliError('usage', 'pass --space or --site, not both.', EXIT.usage);
      try {
        new URL(options.forwardTo);
      } catch {
        throw new CliError('usage', `--forward-to must be a URL, got "${options.forwardTo}".`, EXIT.usage);
      }
      if (options.keep && options.forget)
        throw new CliError('usage', 'pass --keep or --forget, not both.', EXIT.usage);
      const added = options.headers ? parseHeaders(options.headers) : undefined;
      const place = options.site ? 'site' : 'space';
      const host = connect(context, options);
      const where = options.site ?? options.space ?? host.target.session?.space ?? 'space_dev';
      let proxy: HeaderProxy | undefined;
      if (added) proxy = await startHeaderProxy(options.forwardTo, added);
      const configuration = webhookConfiguration(proxy?.url ?? options.forwardTo, place, options.events);
      const remembered = readListen(io.env, host.target.url, options.forwardTo);
      const reused = remembered
        ? await reuse(host, remembered.installationId, { [place]: where }, configuration)
        : undefined;
      const refused = async (reasons: string): Promise<never> => {
        await proxy?.close();
        throw new CliError(
          'webhook_refused',
          `the host at ${host.target.url} refused to deliver to ${options.forwardTo} (${reasons}). A local URL needs a host started with PLATFORM_ALLOW_PRIVATE_TARGETS=1, as \`platform dev\` does.`,
          EXIT.failure,
        );
      };
      const installation =
        reused ??
        (await host
          .call('POST /v1/installations', { body: { integration: 'webhook', [place]: where, configuration } })
          .catch((error: unknown) => {
            // a URL the host may not call is refused outright (400 invalid_configuration), nothing installed
            if (error instanceof HostError && error.code === 'invalid_configuration') {
              const at = error.message.indexOf(' failed: ');
              return refused(
                (at === -1 ? error.message : error.message.slice(at + 9)).replace(/configuration\./g, ''),
              );
            }
            throw error;
          }));
      if (installation.status !== 'active') {
        const reasons = installation.configurationErrors.map((e) => `${e.key}: ${e.message}`).join('; ');
        if (!reused) await uninstall(host, installation.id).catch(() => undefined);
        await refused(reasons || installation.status);
      }
      writeListen(io.env, host.target.url, options.forwardTo, { installationId: installation.id });
      const { secret } = await host.call('GET /v1/installations/{id}/webhook-secret', {
        params: { id: installation.id },
      });
      const c = colors(context);
      if (options.json)
        io.stdout(
          `${JSON.stringify({ installationId: installation.id, secret, reused: reused !== undefined })}\n`,
        );
      else {
        io.stdout(
          `Ready! Delivering ${Object.keys(configuration)
            .filter((k) => k !== 'url')
            .join(', ')} of ${place} ${where} to ${options.forwardTo}\n` +
            `Your webhook signing secret is ${c.bold(secret)} (installation ${installation.id}${reused ? ', the same as last time' : ''}; Ctrl+C to stop)\n` +
            (added ? `Adding headers: ${Object.keys(added).join(', ')}\n` : ''),
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
              : formatAttempt(delivery, attempt, c) + attemptNote(delivery, attempt, installation.id),
          ),
        onState: (delivery) => {
          if (!options.json) io.stdout(stateNote(delivery, installation.id));
        },
        onError: (error) => io.stderr(`warning: ${(error as Error).message}\n`),
      });
      await stopped;
      await proxy?.close();
      if (options.forget) {
        await uninstall(host, installation.id);
        writeListen(io.env, host.target.url, options.forwardTo, undefined);
        io.stderr(`Removed webhook installation ${installation.id}\n`);
        return;
      }
      if (options.keep) {
        io.stderr(`Kept webhook installation ${installation.id} active\n`);
        return;
      }
      await host.call('POST /v1/installations/{id}/pause', { params: { id: installation.id } });
      io.stderr(
        `Paused webhook installation ${installation.id}; \`platform listen --forward-to ${options.forwardTo}\` resumes it with the same secret (--forget removes it)\n`,
      );
    });
}
