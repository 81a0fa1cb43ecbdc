import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts (no types), shared with gen-events.mjs
import { WEBHOOK_TYPES_PATH, webhookTypesSource } from '../../../scripts/webhook-types.mjs';
import { EVENTS_PAGE_PATH, renderEventsPage } from './docs.js';
import { WEBHOOK_SCHEMA_PATH, webhookEventsJsonSchema } from './json-schema.js';

const root = join(import.meta.dirname, '..', '..', '..');
const stale = 'is stale: run `npm run gen:events` and commit the result';

describe('files generated from the catalogue', () => {
  it(`${WEBHOOK_SCHEMA_PATH} is current`, () => {
    const committed = readFileSync(join(root, WEBHOOK_SCHEMA_PATH), 'utf8');
    expect(committed, `${WEBHOOK_SCHEMA_PATH} ${stale}`).toBe(
      `${JSON.stringify(webhookEventsJsonSchema(), null, 2)}\n`,
    );
  });

  it('the webhook body types of @platform/webhooks are current', async () => {
    const committed = readFileSync(join(root, WEBHOOK_TYPES_PATH), 'utf8');
    expect(committed, `${WEBHOOK_TYPES_PATH} ${stale}`).toBe(
      await webhookTypesSource(webhookEventsJsonSchema()),
    );
  });

  it(`${EVENTS_PAGE_PATH} is current`, () => {
    const committed = readFileSync(join(root, EVENTS_PAGE_PATH), 'utf8');
    expect(committed, `${EVENTS_PAGE_PATH} ${stale}`).toBe(renderEventsPage());
  });

  it('publishes one schema branch per webhook event, open to new fields', () => {
    const schema = webhookEventsJsonSchema();
    expect(schema.oneOf.map((branch) => branch.title)).toEqual([
      'space_content_updated',
      'site_view',
      'page_feedback',
    ]);
    expect(schema.oneOf.every((branch) => branch.additionalProperties === undefined)).toBe(true);
  });
});
