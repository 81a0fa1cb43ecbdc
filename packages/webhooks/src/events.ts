import type { RawBody } from './bytes.js';
import { rawBodyBytes } from './bytes.js';
import { WebhookVerificationError } from './errors.js';
import { verify } from './signature.js';
import type {
  WebhookEvent as GeneratedWebhookEvent,
  PageFeedback,
  SiteView,
  SpaceContentUpdated,
} from './webhook-events.generated.js';

/**
 * The shapes of the webhook bodies derive from the event catalogue (`@platform/events`, listed in
 * docs/events.md; JSON Schema in docs/schemas/webhook-events.schema.json), compiled into
 * `webhook-events.generated.ts` by `npm run gen:events`: this package needs no other package, at run
 * time or for its types (a test checks they equal the catalogue's).
 */
/** A `space_content_updated` delivery body. @example let e: SpaceContentUpdatedWebhookEvent; */
export type SpaceContentUpdatedWebhookEvent = SpaceContentUpdated;
/** A `site_view` delivery body. @example let e: SiteViewWebhookEvent; */
export type SiteViewWebhookEvent = SiteView;
/** A `page_feedback` delivery body. @example let e: PageFeedbackWebhookEvent; */
export type PageFeedbackWebhookEvent = PageFeedback;
/** Who was visiting (site events). @example let v: WebhookVisitor; */
export type WebhookVisitor = SiteView['visitor'];

/**
 * One webhook delivery body, discriminated by `type`. The platform may add event types
 * later: give your `switch (event.type)` a `default` branch that ignores what it does not know.
 * @example function onEvent(event: WebhookEvent) { console.log(event.type, event.eventId); }
 */
export type WebhookEvent = GeneratedWebhookEvent;

/** The `type` values of {@link WebhookEvent}. @example const known: WebhookEventType[] = []; */
export type WebhookEventType = WebhookEvent['type'];

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a (verified) raw body into a {@link WebhookEvent}. Checks it is UTF-8 JSON of an object
 * with string `type` and `eventId`; the rest of the shape is trusted because the signature proved
 * the platform sent it. Unknown `type`s pass through (forward compatible).
 *
 * @example
 * const event = parseEvent(rawBody); // only after verify()
 * @throws {WebhookVerificationError} `invalid_body`.
 */
export function parseEvent(body: RawBody): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(rawBodyBytes(body)));
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw err;
    throw new WebhookVerificationError('invalid_body', 'The webhook body is not valid UTF-8 JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError('invalid_body', 'The webhook body must be a JSON object (one event).');
  }
  const record = value as Record<string, unknown>;
  for (const field of ['type', 'eventId'] as const) {
    if (typeof record[field] !== 'string' || record[field] === '') {
      throw new WebhookVerificationError(
        'invalid_body',
        `The webhook body has no "${field}" string: it is not a platform event.`,
      );
    }
  }
  return value as WebhookEvent;
}

/**
 * Verifies the signature (see {@link verify}: the same arguments, `body, header, secrets, options?`)
 * and returns the parsed, typed event.
 *
 * @example
 * const event = await verifyEvent(rawBody, headers['x-platform-signature'], process.env.WEBHOOK_SECRET!);
 * console.log(event.type, event.eventId);
 * @throws {WebhookVerificationError} any verification code, or `invalid_body` when the body is not an event.
 */
export async function verifyEvent(...args: Parameters<typeof verify>): Promise<WebhookEvent> {
  await verify(...args);
  return parseEvent(args[0]);
}
