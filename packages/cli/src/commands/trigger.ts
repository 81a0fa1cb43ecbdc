import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
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
 * registerTrigger(program, context); // platform trigger space_content_updated --space space_dev
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
  $ platform trigger space_content_updated
  $ platform trigger site_view --site site_main
  $ platform trigger page_feedback --data feedback.json`,
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
      const answer = await host.request<{ eventId: string; duplicate?: boolean }>(
        'POST',
        '/v1/events',
        event,
      );
      if (options.json) return printJson(context, { event, eventId: answer.eventId });
      const c = colors(context);
      const where = isSiteEvent(type as TriggerEventType)
        ? `site ${String(event.siteId)}`
        : `space ${String(event.spaceId)}`;
      context.io.stdout(
        `${c.green('Triggered')} ${type} ${c.bold(answer.eventId)} in ${where}${answer.duplicate ? ' (duplicate: already accepted)' : ''}\n`,
      );
    });
}
