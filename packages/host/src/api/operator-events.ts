import { OPERATOR_EVENT_TYPES, OPERATOR_INSTALLATION, originOf } from '../delivery/operator-events.js';
import type { HostContext } from '../services/context.js';
import { invalidAsBadRequest } from '../services/webhooks.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { given, route } from './route.js';
import { OperatorEventList, OperatorEventQuery } from './schemas.js';
import { deliveryView } from './webhooks.js';

/**
 * `GET /v1/operator-events` (operator): the operator events (`endpoint.disabled`, `endpoint.recovered`,
 * `delivery.exhausted`; docs/contracts.md "Operator events"), newest first, each a delivery to the
 * operator's URL with its attempts.
 */
export function operatorEventRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('GET /v1/operator-events', {
      summary:
        'Operator events (endpoint disabled or recovered, delivery exhausted), each with its delivery attempts',
      query: OperatorEventQuery,
      ok: [200, 'Operator events', OperatorEventList],
      errors: { 400: errorResponse('Invalid request'), ...OPERATOR_ONLY_ERRORS },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await ctx.storage.jobs
        .listDeliveries(OPERATOR_INSTALLATION, given({ state: q.state, limit: q.limit, cursor: q.cursor }))
        .catch(invalidAsBadRequest);
      return c.json(
        {
          endpoint: originOf(ctx.config.operatorEvents?.url),
          types: [...OPERATOR_EVENT_TYPES],
          deliveries: page.items.map((job) => deliveryView(job)),
          nextCursor: page.nextCursor,
        },
        200,
      );
    },
  );
  return app;
}
