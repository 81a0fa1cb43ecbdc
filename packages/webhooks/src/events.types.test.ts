import type { PageFeedbackPayload, SiteViewPayload, Visitor, WebhookPayload } from '@platform/events';
import { describe, expect, it } from 'vitest';
import type {
  PageFeedbackWebhookEvent,
  SiteViewWebhookEvent,
  SpaceContentUpdatedWebhookEvent,
  WebhookEvent,
  WebhookVisitor,
} from './events.js';

/** `true` when each type is assignable to the other; a drift makes the constants below fail to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// The types this package ships are compiled from the catalogue's JSON Schema; here they are compared with
// the catalogue's own (zod-inferred) types, which only the repository has: a drift fails the type-check.
const same = {
  all: true satisfies Same<WebhookEvent, WebhookPayload>,
  siteView: true satisfies Same<SiteViewWebhookEvent, SiteViewPayload>,
  pageFeedback: true satisfies Same<PageFeedbackWebhookEvent, PageFeedbackPayload>,
  spaceContent: true satisfies Same<
    SpaceContentUpdatedWebhookEvent,
    Extract<WebhookPayload, { type: 'space_content_updated' }>
  >,
  visitor: true satisfies Same<WebhookVisitor, Visitor>,
};

describe('webhook body types', () => {
  it('are the event catalogue’s (checked by the type-check; this only keeps the file a test)', () => {
    expect(Object.values(same).every(Boolean)).toBe(true);
  });
});
