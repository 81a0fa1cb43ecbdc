import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
} from '@opentelemetry/semantic-conventions';
import { type HostTracing, traceLogFields, traceparentOf } from '../../tracing/index.js';
import type { AttemptTrace } from '../engine.js';

/** What an attempt's span needs of a queued delivery; `log` is set to the span's ids for its log lines. */
export interface TracedDelivery {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  installationId: string;
  /** The `traceparent` stored with the job at fan-out (its fan-out span), if tracing was on then. */
  traceparent?: string | undefined;
  log?: { trace_id?: string; span_id?: string };
}

/** The span name of one webhook delivery attempt. @example spans.filter((s) => s.name === ATTEMPT_SPAN); */
export const ATTEMPT_SPAN = 'webhook attempt';

/**
 * The delivery engine's `traceAttempt` (tracing on): one CLIENT span per attempt, a child of the job's
 * fan-out span (the `traceparent` stored with the job), so every attempt of an event's delivery, however
 * late, is in the event's trace. Its `traceparent` is the header the receiver gets. Attributes: delivery
 * id, attempt, installation, event, the HTTP status or the error code, and the decision (succeeded, a
 * retry and when, failed, exhausted). The receiver's URL is not recorded (it may hold a token).
 *
 * @example
 * startDeliveryEngine({ ...deps, tracing }, dispatcher, version); // uses attemptTracer(tracing)
 */
export function attemptTracer(tracing: HostTracing): (job: TracedDelivery) => AttemptTrace {
  return (job) => {
    const span = tracing.start(ATTEMPT_SPAN, {
      kind: SpanKind.CLIENT,
      parent: job.traceparent,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: 'POST',
        'platform.delivery.id': job.id,
        'platform.delivery.attempt': job.attempt,
        'platform.installation.id': job.installationId,
        'platform.event.id': job.eventId,
        'platform.event.type': job.eventType,
      },
    });
    job.log = traceLogFields(span);
    return {
      traceparent: traceparentOf(span),
      end(attempt, decision, error) {
        if (attempt?.statusCode !== undefined)
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, attempt.statusCode);
        if (attempt?.error) span.setAttribute(ATTR_ERROR_TYPE, attempt.error.code);
        if (decision) {
          const outcome = 'state' in decision ? decision.state : 'retry';
          span.setAttribute('platform.delivery.outcome', outcome);
          if ('retryInMs' in decision) span.setAttribute('platform.delivery.retry_in_ms', decision.retryInMs);
          if (outcome !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        }
        if (error !== undefined) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          if (error instanceof Error) span.recordException(error);
        }
        span.end();
      },
    };
  };
}
