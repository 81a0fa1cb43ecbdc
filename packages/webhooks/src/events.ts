import type { RawBody } from './bytes.js';
import { rawBodyBytes } from './bytes.js';
import { WebhookVerificationError } from './errors.js';
import { type VerifyOptions, verify } from './signature.js';

/** A site visitor, as carried by `site_view` and `page_feedback` (SPEC 2.10). */
export interface WebhookVisitor {
  anonymousId: string;
  userAgent: string;
  ip: string;
  /** Cookie names to values; may be empty. */
  cookies: Record<string, string>;
}

/** Content in a space changed (space installations). */
export interface SpaceContentUpdatedWebhookEvent {
  eventId: string;
  type: 'space_content_updated';
  spaceId: string;
  installationId: string;
  revisionId: string;
}

/** A visitor opened a page of a site (site installations). */
export interface SiteViewWebhookEvent {
  eventId: string;
  type: 'site_view';
  siteId: string;
  installationId: string;
  visitor: WebhookVisitor;
  /** URL of the viewed page. */
  url: string;
  referrer: string;
}

/** A visitor gave feedback on a page (site installations). */
export interface PageFeedbackWebhookEvent {
  eventId: string;
  type: 'page_feedback';
  siteId: string;
  spaceId: string;
  installationId: string;
  pageId: string;
  /** `comment` is written by the visitor: treat it as untrusted text. */
  feedback: { rating: string; comment: string };
  visitor: WebhookVisitor;
  url: string;
  referrer: string;
}

/**
 * One webhook delivery body (SPEC 2.10), discriminated by `type`. The platform may add event types
 * later: give your `switch (event.type)` a `default` branch that ignores what it does not know.
 */
export type WebhookEvent = SpaceContentUpdatedWebhookEvent | SiteViewWebhookEvent | PageFeedbackWebhookEvent;

/** The `type` values of {@link WebhookEvent}. */
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
 * Verifies the signature (see {@link verify}) and returns the parsed, typed event.
 *
 * @example
 * const event = await verifyEvent(rawBody, headers['x-platform-signature'], process.env.WEBHOOK_SECRET!);
 * if (event.type === 'page_feedback') console.log(event.feedback.rating);
 * @throws {WebhookVerificationError} any verification code, or `invalid_body` when the body is not an event.
 */
export async function verifyEvent(
  body: RawBody,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  await verify(body, header, secrets, options);
  return parseEvent(body);
}
