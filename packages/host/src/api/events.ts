import type { HostContext } from '../services/context.js';
import { type AcceptedEvent, acceptEvent } from '../services/events.js';
import { createGuardedRouter } from './authorize.js';
import { endAcceptSpan, startAcceptSpan } from './event-trace.js';
import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { route } from './route.js';
import { EventAccepted, IncomingEvent } from './schemas.js';

/** The 202 body of `POST /v1/events`: `{"eventId"}`, with `"duplicate": true` for a repeated event id. */
export function acceptedBody(result: AcceptedEvent): { eventId: string; duplicate?: true } {
  return { eventId: result.eventId, ...(result.duplicate ? { duplicate: true as const } : {}) };
}

/** Route: `POST /v1/events`, where the documentation platform posts its events. */
export function eventRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('POST /v1/events', {
      summary: 'Accept a platform event: stored durably, then fanned out to matching installations',
      description:
        'Idempotent on `eventId` (assigned when absent). Answers once the event and every delivery it creates are committed.',
      body: IncomingEvent,
      ok: [202, 'Accepted', EventAccepted],
      errors: { 400: errorResponse('Invalid event'), ...OPERATOR_ONLY_ERRORS },
    }),
    async (c) => {
      const event = c.req.valid('json');
      const span = startAcceptSpan(ctx, c.req.header('traceparent'));
      try {
        const accepted = await acceptEvent(ctx, event, span);
        endAcceptSpan(span, 202, { ...accepted, type: event.type });
        return c.json(acceptedBody(accepted), 202);
      } catch (error) {
        endAcceptSpan(span, 500);
        throw error;
      }
    },
  );
  return app;
}
