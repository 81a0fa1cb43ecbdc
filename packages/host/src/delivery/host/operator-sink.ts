import type { HostConfig } from '../../config.js';
import { newSortableId, type Storage } from '../../storage/index.js';
import type { DeliveryTarget, RecordedAttempt } from '../engine.js';
import {
  OPERATOR_INSTALLATION,
  OPERATOR_SCHEDULE,
  type OperatorFact,
  operatorEvent,
} from '../operator-events.js';
import type { HealthEvent } from './endpoint-health.js';

/** What {@link operatorEventSink} needs. */
export interface OperatorSinkOptions {
  storage: Storage;
  /** The operator's URL and secret; undefined: no operator event is queued. */
  settings: HostConfig['operatorEvents'];
  /** Where an installation's deliveries go now (for the endpoint's origin in the events). */
  targetOf(installationId: string): Promise<DeliveryTarget | null>;
  /** Operator events were queued: look for due work. */
  notify(): void;
  onError(error: unknown): void;
}

/** The delivery of one exhausted series, as the sink reads it. */
export interface ExhaustedDelivery {
  id: string;
  eventId: string;
  eventType: string;
  record: { installationId: string };
}

/**
 * Queues operator events (docs/contracts.md "Operator events") as deliveries of their own
 * (`installation_id` {@link OPERATOR_INSTALLATION}) to the operator's URL, signed with its secret, retried
 * on the `extended` schedule and logged like any delivery. Never throws: a failure to queue is reported
 * to `onError` (the webhook delivery it is about is already recorded).
 *
 * @example
 * const operator = operatorEventSink({ storage, settings: config.operatorEvents, targetOf, notify, onError });
 * operator.health({ type: 'endpoint.disabled', installationId: 'inst_1', failingSince: 0, at: Date.now() });
 */
export function operatorEventSink(options: OperatorSinkOptions) {
  const { settings } = options;
  const target: DeliveryTarget | null = settings
    ? { url: settings.url, secrets: [settings.secret], schedule: OPERATOR_SCHEDULE }
    : null;

  const queue = (fact: OperatorFact) => {
    if (!settings) return;
    const queued = (async () => {
      const url = (await options.targetOf(fact.installationId).catch(() => null))?.url;
      const eventId = newSortableId('evt');
      const body = operatorEvent(url ? { ...fact, url } : fact, eventId);
      await options.storage.jobs.enqueue([
        {
          kind: 'deliver',
          installationId: OPERATOR_INSTALLATION,
          eventId,
          payload: { eventType: body.type, body: JSON.stringify(body) },
        },
      ]);
      options.notify();
    })();
    queued.catch(options.onError);
  };

  return {
    /** Whether deliveries of this installation id are operator events. */
    isOwn: (installationId: string) => installationId === OPERATOR_INSTALLATION,
    /** Where operator events go: the operator's URL and secret, or null (then their deliveries fail). */
    target: () => target,
    /** An endpoint was disabled or recovered. */
    health(event: HealthEvent): void {
      queue(event);
    },
    /** A webhook delivery used up its retries. */
    exhausted(job: ExhaustedDelivery, attempt: RecordedAttempt): void {
      queue({
        type: 'delivery.exhausted',
        installationId: job.record.installationId,
        deliveryId: job.id,
        event: { eventId: job.eventId, type: job.eventType },
        attempts: attempt.attempt,
        lastOutcome: attempt.error ? attempt.error.code : `HTTP ${attempt.statusCode}`,
        at: Date.now(),
      });
    },
  };
}
