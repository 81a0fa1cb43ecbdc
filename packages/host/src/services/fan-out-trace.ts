import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { JobRecord } from '../storage/index.js';
import { type HostTracing, traceparentOf } from '../tracing/index.js';

/** The span name of an event's fan-out (routing, and the write of the event with its jobs). @example spans.find((s) => s.name === FAN_OUT_SPAN); */
export const FAN_OUT_SPAN = 'fan-out';

/** The fan-out spans of one group of accepted events: one per event, each under its accept span. */
export interface FanOutSpans {
  /** Each event's fan-out span as a W3C `traceparent`: stored in its jobs' payloads. */
  readonly traceparents: readonly string[];
  /** After the write: each span gets the event's jobs (one span event `job` each) and ends. */
  end(outcomes: ReadonlyArray<{ duplicate: boolean }>, jobs: readonly JobRecord[]): void;
  /** The write failed: the spans end with its error. */
  fail(error: unknown): void;
}

/**
 * Starts the fan-out spans of a group about to be routed and written (tracing on). A span covers the
 * group's routing and write (the events of one write share that time), and records each job the event
 * created as a span event `job` (`platform.job.id`, `platform.job.kind`: deliver / invoke,
 * `platform.installation.id`, `platform.job.state`: running when handed to the delivery thread, else
 * queued or held). The jobs carry the span's `traceparent`, so their attempts and invocations are its
 * children.
 *
 * @example
 * const fanOut = startFanOutSpans(tracing, [{ event, span: acceptSpan }]);
 * const jobs = fanOutJobs(event, targets, fanOut.traceparents[0]);
 */
export function startFanOutSpans(
  tracing: HostTracing,
  submitted: ReadonlyArray<{ event: { type: string; eventId: string }; span: Span | undefined }>,
): FanOutSpans {
  const spans = submitted.map(({ event, span }) =>
    tracing.start(FAN_OUT_SPAN, {
      kind: SpanKind.INTERNAL,
      parent: span,
      attributes: {
        'platform.event.id': event.eventId,
        'platform.event.type': event.type,
        'platform.group.size': submitted.length,
      },
    }),
  );
  return {
    traceparents: spans.map(traceparentOf),
    end(outcomes, jobs) {
      const byEvent = new Map<string, JobRecord[]>();
      for (const job of jobs) {
        if (job.eventId === null) continue;
        const list = byEvent.get(job.eventId);
        if (list) list.push(job);
        else byEvent.set(job.eventId, [job]);
      }
      for (const [i, span] of spans.entries()) {
        const duplicate = outcomes[i]?.duplicate ?? false;
        const own = duplicate ? [] : (byEvent.get(submitted[i]?.event.eventId ?? '') ?? []);
        // A repeated eventId within the group: its jobs belong to the first event of the id.
        byEvent.delete(submitted[i]?.event.eventId ?? '');
        span.setAttribute('platform.event.duplicate', duplicate);
        span.setAttribute('platform.jobs.count', own.length);
        for (const job of own) {
          span.addEvent('job', {
            'platform.job.id': job.id,
            'platform.job.kind': job.kind,
            'platform.installation.id': job.installationId,
            'platform.job.state': job.state,
          });
        }
        span.end();
      }
    },
    fail(error) {
      for (const span of spans) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        span.end();
      }
    },
  };
}
