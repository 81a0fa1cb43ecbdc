import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { HostContext } from '../services/context.js';
import type { AcceptedEvent } from '../services/events.js';

/** The span name of `POST /v1/events` (HTTP server span naming: method and route). @example spans.filter((s) => s.name === ACCEPT_SPAN); */
export const ACCEPT_SPAN = 'POST /v1/events';

/**
 * The accept span of one `POST /v1/events` (tracing on; undefined when off): SERVER kind, under the
 * caller's `traceparent` header when it sent a valid one (the platform's trace goes on), else a new trace.
 *
 * @example
 * const span = startAcceptSpan(ctx, req.headers.traceparent);
 * endAcceptSpan(span, 202, await acceptEvent(ctx, event, span));
 */
export function startAcceptSpan(
  ctx: HostContext,
  traceparent: string | string[] | undefined,
): Span | undefined {
  return ctx.tracing?.start(ACCEPT_SPAN, {
    kind: SpanKind.SERVER,
    parent: typeof traceparent === 'string' ? traceparent : undefined,
    attributes: { [ATTR_HTTP_REQUEST_METHOD]: 'POST', [ATTR_HTTP_ROUTE]: '/v1/events' },
  });
}

/**
 * Ends an accept span with the answer's status and, when accepted, the event (`platform.event.id`,
 * `platform.event.type`, `platform.event.duplicate`, `platform.jobs.count`).
 *
 * @example
 * endAcceptSpan(span, 400);
 */
export function endAcceptSpan(
  span: Span | undefined,
  status: number,
  accepted?: AcceptedEvent & { type: string },
): void {
  if (!span) return;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (accepted) {
    span.setAttributes({
      'platform.event.id': accepted.eventId,
      'platform.event.type': accepted.type,
      'platform.event.duplicate': accepted.duplicate,
      'platform.jobs.count': accepted.jobs,
    });
  }
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
