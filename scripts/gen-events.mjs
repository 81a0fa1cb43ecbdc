// Writes the files generated from the event catalogue (packages/events): the JSON Schema of every
// webhook body, its TypeScript types for @platform/webhooks (scripts/webhook-types.mjs) and docs/events.md. `npm run gen:events`; packages/events/src/generated.test.ts fails
// when the committed files differ from what this writes.
import { importBundled, writeGenerated } from './generated-files.mjs';
import { WEBHOOK_TYPES_PATH, webhookTypesSource } from './webhook-types.mjs';

const events = await importBundled('packages/events/src/index.ts');
writeGenerated({
  [events.WEBHOOK_SCHEMA_PATH]: `${JSON.stringify(events.webhookEventsJsonSchema(), null, 2)}\n`,
  [events.EVENTS_PAGE_PATH]: events.renderEventsPage(),
  [WEBHOOK_TYPES_PATH]: await webhookTypesSource(events.webhookEventsJsonSchema()),
});
