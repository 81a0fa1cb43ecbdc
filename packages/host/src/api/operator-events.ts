import { createRoute } from '@hono/zod-openapi';
import { OPERATOR_EVENT_TYPES, OPERATOR_INSTALLATION, originOf } from '../delivery/operator-events.js';
import type { HostContext } from '../services/context.js';
import { invalidAsBadRequest } from '../services/webhooks.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse, json, OPERATOR_ONLY_ERRORS } from './responses.js';
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
    createRoute({
      method: 'get',
      path: '/v1/operator-events',
      summary:
        'Operator events (endpoint disabled or recovered, delivery exhausted), each with its delivery attempts',
      request: { query: OperatorEventQuery },
      responses: {
        200: { description: 'Operator events', content: json(OperatorEventList) },
        400: errorResponse('Invalid request'),
        ...OPERATOR_ONLY_ERRORS,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await ctx.storage.jobs
        .listDeliveries(OPERATOR_INSTALLATION, {
          ...(q.state ? { state: q.state } : {}),
          ...(q.limit ? { limit: q.limit } : {}),
          ...(q.cursor ? { cursor: q.cursor } : {}),
        })
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
