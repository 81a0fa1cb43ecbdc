import { EVENT_SCOPES } from '@platform/manifest';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { isSiteEvent, sampleEvent, TRIGGER_EVENT_TYPES, type TriggerEventType } from '../samples.js';
import { table } from './lists.js';
import { printJson } from './shared.js';

/** One entry of the event catalogue. */
export interface CatalogueEntry {
  type: TriggerEventType;
  place: 'space' | 'site';
  scope: string | null;
  sample: Record<string, unknown>;
}

/**
 * The events the host accepts on `POST /v1/events`: where each happens, the scope an integration
 * needs to receive it, and a sample payload (the one `platform trigger` sends).
 *
 * @example
 * ```ts
 * eventCatalogue().find((e) => e.type === 'site_view')?.scope; // 'site:views:read'
 * ```
 */
export function eventCatalogue(): CatalogueEntry[] {
  return TRIGGER_EVENT_TYPES.map((type) => ({
    type,
    place: isSiteEvent(type) ? 'site' : 'space',
    scope: (EVENT_SCOPES as Record<string, string | null>)[type] ?? null,
    sample: sampleEvent(type),
  }));
}

/**
 * Registers `platform events [type]`: the event catalogue, or one event's sample payload.
 *
 * @example
 * ```ts
 * registerEvents(program, context); // platform events space_visibility_updated
 * ```
 */
export function registerEvents(program: Command, context: CommandContext): void {
  program
    .command('events')
    .description('the platform events: where they happen, the scope they need, sample payloads')
    .argument('[type]', 'show the sample payload of this event type')
    .option('--json', 'print the catalogue (or the one entry) as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ platform events
  $ platform events page_feedback           # its sample payload
  $ platform events --json`,
    )
    .action((type: string | undefined, options: { json?: boolean }) => {
      const catalogue = eventCatalogue();
      if (type !== undefined) {
        const entry = catalogue.find((e) => e.type === type);
        if (!entry) {
          throw new CliError(
            'usage',
            `unknown event type "${type}"; use one of ${TRIGGER_EVENT_TYPES.join(', ')}.`,
            EXIT.usage,
          );
        }
        if (options.json) return printJson(context, entry);
        context.io.stdout(
          `${entry.type} (${entry.place} event; needs ${entry.scope ? `the scope ${entry.scope}` : 'no scope'})\n` +
            `Sample payload (what \`platform trigger ${entry.type}\` sends):\n${JSON.stringify(entry.sample, null, 2)}\n`,
        );
        return;
      }
      if (options.json) return printJson(context, { events: catalogue });
      context.io.stdout(
        `${table([
          ['EVENT', 'PLACE', 'SCOPE'],
          ...catalogue.map((e) => [e.type, e.place, e.scope ?? '-']),
        ])}\nSample payload: platform events <type>; send one: platform trigger <type>\n`,
      );
    });
}
