import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './catalogue.js';
import { webhookPayloadSchema } from './schemas.js';

/** Where the generated JSON Schema is published in the repository. */
export const WEBHOOK_SCHEMA_PATH = 'docs/schemas/webhook-events.schema.json';

/**
 * The JSON Schema (draft 2020-12) of every webhook delivery body: one `oneOf` branch per event,
 * discriminated by `type`. Generated into {@link WEBHOOK_SCHEMA_PATH} by `npm run gen:events`.
 *
 * @example
 * const schema = webhookEventsJsonSchema();
 * schema.oneOf.length; // one per webhook event
 */
export function webhookEventsJsonSchema(): { oneOf: Record<string, unknown>[] } & Record<string, unknown> {
  const oneOf = WEBHOOK_EVENT_TYPES.map((type) => {
    const { $schema: _, ...schema } = z.toJSONSchema(webhookPayloadSchema(type), {
      target: 'draft-2020-12',
      io: 'input',
    });
    return schema as Record<string, unknown>;
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://platform.example/schemas/webhook-events.schema.json',
    title: 'Webhook event',
    description:
      'The body of one webhook delivery (generated from packages/events; see docs/events.md). Receivers should ignore fields and event types they do not know.',
    oneOf,
  };
}
