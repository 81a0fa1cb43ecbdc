/**
 * Operator events (docs/contracts.md "Operator events"): what the host tells its operator about webhook
 * endpoints, delivered signed to `PLATFORM_OPERATOR_EVENTS_URL` through the durable delivery pipeline. The
 * schemas here are the contract (docs derive from them); the builders are pure.
 */
import { z } from 'zod';
import { RETRY_SCHEDULE_PRESETS, type RetrySchedule } from './schedule.js';

/**
 * The `installation_id` of operator-event deliveries in the queue: not an installation (those are
 * `inst_…`), so they are listed, retried and logged like webhook deliveries without being any endpoint's.
 */
export const OPERATOR_INSTALLATION = 'operator';

/** Operator events are retried on the `extended` schedule (about 27 h): an operator's collector may be down for a while. */
export const OPERATOR_SCHEDULE: RetrySchedule = RETRY_SCHEDULE_PRESETS.extended;

const common = {
  eventId: z.string().describe('unique per event: deduplicate on it (a retry carries the same)'),
  createdAt: z.string().describe('ISO 8601 time the host noticed it'),
  installationId: z.string().describe('the webhook installation whose endpoint it is about'),
  endpoint: z.string().nullable().describe("the endpoint's origin (scheme, host, port; no path), or null"),
};

/** `endpoint.disabled`: every delivery was exhausted for `PLATFORM_ENDPOINT_DISABLE_AFTER`. */
export const EndpointDisabledEvent = z.object({
  type: z.literal('endpoint.disabled'),
  ...common,
  failingSince: z.string().describe('start of the run of exhausted deliveries'),
  disabledAt: z.string(),
});

/** `endpoint.recovered`: the first delivery that succeeded after the endpoint was enabled again. */
export const EndpointRecoveredEvent = z.object({
  type: z.literal('endpoint.recovered'),
  ...common,
  enabledAt: z.string(),
  recoveredAt: z.string(),
});

/** `delivery.exhausted`: a delivery used up its retries. */
export const DeliveryExhaustedEvent = z.object({
  type: z.literal('delivery.exhausted'),
  ...common,
  deliveryId: z.string(),
  event: z
    .object({ eventId: z.string(), type: z.string() })
    .describe('the webhook event that was not delivered'),
  attempts: z.number().int().describe('attempts made in the series'),
  lastOutcome: z.string().describe('the last attempt: `HTTP 503`, or an error code such as `timeout`'),
});

/** Any operator event (the JSON body of its delivery). */
export const OperatorEvent = z.discriminatedUnion('type', [
  EndpointDisabledEvent,
  EndpointRecoveredEvent,
  DeliveryExhaustedEvent,
]);
export type OperatorEvent = z.infer<typeof OperatorEvent>;

/** The event types, for docs and the dashboard. */
export const OPERATOR_EVENT_TYPES = [
  'endpoint.disabled',
  'endpoint.recovered',
  'delivery.exhausted',
] as const;

/** Whose origin a URL has (null when it is not one), as operator events name endpoints. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** What a host-side fact becomes: an operator event, its times as ISO strings. */
export type OperatorFact =
  | { type: 'endpoint.disabled'; installationId: string; url?: string; failingSince: number; at: number }
  | { type: 'endpoint.recovered'; installationId: string; url?: string; enabledAt: number; at: number }
  | {
      type: 'delivery.exhausted';
      installationId: string;
      url?: string;
      deliveryId: string;
      event: { eventId: string; type: string };
      attempts: number;
      lastOutcome: string;
      at: number;
    };

/**
 * The operator event of a fact, with `eventId` (validated against {@link OperatorEvent}).
 *
 * @example
 * operatorEvent({ type: 'endpoint.disabled', installationId: 'inst_1', failingSince: 0, at: 86_400_000 }, 'evt_1');
 * // { type: 'endpoint.disabled', eventId: 'evt_1', createdAt: '1970-01-02T00:00:00.000Z', installationId: 'inst_1',
 * //   endpoint: null, failingSince: '1970-01-01T00:00:00.000Z', disabledAt: '1970-01-02T00:00:00.000Z' }
 */
export function operatorEvent(fact: OperatorFact, eventId: string): OperatorEvent {
  const iso = (ms: number) => new Date(ms).toISOString();
  const base = {
    eventId,
    createdAt: iso(fact.at),
    installationId: fact.installationId,
    endpoint: originOf(fact.url),
  };
  switch (fact.type) {
    case 'endpoint.disabled':
      return OperatorEvent.parse({
        type: fact.type,
        ...base,
        failingSince: iso(fact.failingSince),
        disabledAt: iso(fact.at),
      });
    case 'endpoint.recovered':
      return OperatorEvent.parse({
        type: fact.type,
        ...base,
        enabledAt: iso(fact.enabledAt),
        recoveredAt: iso(fact.at),
      });
    case 'delivery.exhausted':
      return OperatorEvent.parse({
        type: fact.type,
        ...base,
        deliveryId: fact.deliveryId,
        event: fact.event,
        attempts: fact.attempts,
        lastOutcome: fact.lastOutcome,
      });
  }
}
