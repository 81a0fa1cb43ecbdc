/**
 * `@platform/events`: the event catalogue. Plain data (names, places, scopes) in `catalogue.ts`
 * (also served zod-free as `@platform/events/catalogue` for workerd bundles); payload schemas,
 * samples, JSON Schema and the docs page derive from it.
 */
export * from './catalogue.js';
export { EVENTS_PAGE_PATH, renderEventsPage } from './docs.js';
export { WEBHOOK_SCHEMA_PATH, webhookEventsJsonSchema } from './json-schema.js';
export * from './payloads.js';
export { type SamplePlace, sampleEvent } from './samples.js';
export {
  type IncomingEvent,
  IncomingEventSchema,
  WebhookPayloadSchema,
  webhookPayloadSchema,
} from './schemas.js';
