import { z } from 'zod';
import {
  EVENT_CATALOGUE,
  PLATFORM_EVENT_TYPES,
  type PlatformEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from './catalogue.js';
import { EVENT_FIELDS, type EventFieldsOf, type WebhookPayload } from './payloads.js';

/**
 * What `POST /v1/events` accepts: one platform event; `eventId` is optional (the host makes one),
 * `installationId` is tolerated so a webhook payload can be posted back as is.
 * @example const e: IncomingEvent = sampleEvent(type);
 */
export type IncomingEvent = {
  [K in PlatformEventType]: {
    type: K;
    eventId?: string | undefined;
    installationId?: string | undefined;
  } & EventFieldsOf<K>;
}[PlatformEventType];

type AnyObject = z.ZodObject<z.ZodRawShape>;

function union<T>(options: AnyObject[]): z.ZodType<T> {
  return z.discriminatedUnion('type', options as [AnyObject, ...AnyObject[]]) as unknown as z.ZodType<T>;
}

/**
 * The request body schema of `POST /v1/events`: unknown keys are refused (a typo is a 400, not a
 * silently dropped field).
 * @example IncomingEventSchema.safeParse(await request.json()).success;
 */
export const IncomingEventSchema: z.ZodType<IncomingEvent> = union(
  PLATFORM_EVENT_TYPES.map((type) =>
    z
      .object({
        eventId: z.string().min(1).max(200).optional(),
        installationId: z.string().optional(),
        type: z.literal(type),
        ...EVENT_FIELDS[type],
      })
      .strict(),
  ),
);

/**
 * The schema of one webhook delivery body. Not strict: the platform may add fields, and receivers
 * should ignore what they do not know.
 * @example webhookPayloadSchema(type).parse(JSON.parse(body));
 */
export function webhookPayloadSchema(type: WebhookEventType): AnyObject {
  return z
    .object({
      eventId: z
        .string()
        .min(1)
        .meta({ description: 'unique id of the event; repeated on retries: deduplicate on it' }),
      type: z.literal(type),
      installationId: z
        .string()
        .min(1)
        .meta({ description: 'id of the installation this delivery belongs to' }),
      ...EVENT_FIELDS[type],
    })
    .meta({ title: type, description: EVENT_CATALOGUE[type].summary });
}

/**
 * Every webhook delivery body, discriminated by `type`.
 * @example WebhookPayloadSchema.parse(JSON.parse(body)).eventId;
 */
export const WebhookPayloadSchema: z.ZodType<WebhookPayload> = union(
  WEBHOOK_EVENT_TYPES.map(webhookPayloadSchema),
);
