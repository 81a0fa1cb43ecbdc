import { WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import type { HostRoutes } from '@platform/host/api';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { describeReach, eventReach } from '../host/reach.js';
import { isSiteEvent, sampleEvent, TRIGGER_EVENT_TYPES, type TriggerEventType } from '../samples.js';
import { colors, connect, printJson, readJsonFile, withHostOptions } from './shared.js';

interface TriggerOptions {
  space?: string;
  site?: string;
  data?: string;
  json?: boolean;
  url?: string;
  token?: string;
}

/**
 * Registers `platform trigger <event>`: posts a realistic sample of an event to `POST /v1/events`
 * (like `stripe trigger`).
 *
 * @example
 * ```ts
 * registerTrigger(program, context); // platform trigger <event> --space space_dev
 * ```
 */
export function registerTrigger(program: Command, context: CommandContext): void {
  withHostOptions(
    program
      .command('trigger')
      .description('send a sample platform event to the host, as the documentation platform would')
      .argument('<event>', `event type: ${TRIGGER_EVENT_TYPES.join(', ')}`)
      .option('--space <id>', 'space of the event (default: the dev space, else space_dev)')
      .option('--site <id>', 'site of the event (default: the dev site, else site_dev)')
      .option('--data <file>', 'JSON file whose fields override the sample')
      .option('--json', 'print {"event", "eventId"} as JSON'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ platform trigger ${WEBHOOK_EVENT_TYPES_BY_PLACE.space[0]}
  $ platform trigger ${WEBHOOK_EVENT_TYPES_BY_PLACE.site[0]} --site site_main
  $ platform trigger ${WEBHOOK_EVENT_TYPES_BY_PLACE.site.at(-1)} --data feedback.json`,
    )
    .action(async (type: string, options: TriggerOptions) => {
      if (!(TRIGGER_EVENT_TYPES as readonly string[]).includes(type)) {
        throw new CliError(
          'usage',
          `unknown event type "${type}"; use one of ${TRIGGER_EVENT_TYPES.join(', ')}.`,
          EXIT.usage,
        );
      }
      const host = connect(context, options);
      const session = host.target.session;
      const space = options.space ?? session?.space;
      const site = options.site ?? session?.site;
      const sample = sampleEvent(type as TriggerEventType, {
        ...(space ? { space } : {}),
        ...(site ? { site } : {}),
      });
      const overrides = options.data ? readJsonFile(context.io.cwd, options.data) : {};
      if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
        throw new CliError('usage', `${options.data} must hold a JSON object.`, EXIT.usage);
      }
      const event: Record<string, unknown> = { ...sample, ...overrides, type };
      const answer = await host.call('POST /v1/events', {
        // A sample merged with the user's --data: the host validates it (400 naming the field).
        body: event as HostRoutes['POST /v1/events']['body'],
      });
      if (options.json) return printJson(context, { event, eventId: answer.eventId });
      const c = colors(context);
      const place = isSiteEvent(type as TriggerEventType)
        ? { site: String(event.siteId) }
        : { space: String(event.spaceId) };
      const where = 'site' in place ? `site ${place.site}` : `space ${place.space}`;
      context.io.stdout(
        `${c.green('Triggered')} ${type} ${c.bold(answer.eventId)} in ${where}${answer.duplicate ? ' (duplicate: already accepted)' : ''}\n`,
      );
      // Where it went, by the host's routing rules: a silent "Triggered" that runs nothing misleads.
      try {
        context.io.stdout(describeReach(await eventReach(host, type, place), where));
      } catch (error) {
        context.io.stderr(`warning: could not tell where the event went: ${(error as Error).message}\n`);
      }
    });
}
