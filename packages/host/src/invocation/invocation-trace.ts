import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import type { decide } from '../jobs/policy.js';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { type HostTracing, traceLogFields, traceparentOf } from '../tracing/index.js';
import type { InvocationOutcome, InvocationRetry } from './invoker.js';

/** The span name of one invocation of an integration by the invocation worker. @example spans.filter((s) => s.name === INVOKE_SPAN); */
export const INVOKE_SPAN = 'invoke integration';

/** An invocation's span and what `invoke` carries of it. */
export interface InvocationSpan {
  readonly trace: NonNullable<InvocationRetry['trace']>;
  /** Ends the span with the outcome and the retry decision, or the error that stopped the attempt. */
  end(
    outcome: InvocationOutcome | undefined,
    decision: ReturnType<typeof decide> | undefined,
    error?: unknown,
  ): void;
}

/**
 * Starts the CLIENT span of one queued invocation attempt, a child of the job's fan-out span (its stored
 * `traceparent`). Attributes: installation, integration and version, event, attempt; at the end the
 * integration's HTTP status or the executor's error code, and the decision (retry or final state).
 *
 * @example
 * const span = startInvocationSpan(tracing, { integration, installation, event, attempt: 1, parent: payload.traceparent });
 */
export function startInvocationSpan(
  tracing: HostTracing,
  input: {
    integration: IntegrationRecord;
    installation: InstallationRecord;
    event: { type: string; eventId: string };
    attempt: number;
    parent: string | undefined;
  },
): InvocationSpan {
  const span: Span = tracing.start(INVOKE_SPAN, {
    kind: SpanKind.CLIENT,
    parent: input.parent,
    attributes: {
      'platform.installation.id': input.installation.id,
      'platform.integration.name': input.integration.name,
      'platform.integration.version': input.integration.version,
      'platform.event.id': input.event.eventId,
      'platform.event.type': input.event.type,
      'platform.invocation.attempt': input.attempt,
    },
  });
  return {
    trace: { traceparent: traceparentOf(span), log: traceLogFields(span) },
    end(outcome, decision, error) {
      if (outcome?.ok) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.response.status);
      else if (outcome) span.setAttribute(ATTR_ERROR_TYPE, outcome.error.code);
      if (decision) {
        const state = 'state' in decision ? decision.state : 'retry';
        span.setAttribute('platform.invocation.outcome', state);
        if (state !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR, message: state });
      }
      if (error !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        if (error instanceof Error) span.recordException(error);
      }
      span.end();
    },
  };
}
