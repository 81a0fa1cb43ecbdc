import { createRoute } from '@hono/zod-openapi';
import type { HostContext } from '../services/context.js';
import { hostStatus } from '../services/status.js';
import { createGuardedRouter } from './authorize.js';

import { json, OPERATOR_ONLY_ERRORS } from './responses.js';
import { HostStatus } from './schemas.js';

/**
 * `GET /v1/status` (operator): the queues (deliveries and invocations: queued, due, held, running, lag)
 * and the webhook endpoints held to their fair share now. What the dashboard's Host page shows; for
 * Prometheus, see `GET /metrics`.
 */
export function statusRoutes(ctx: HostContext, info: { version: string; startedAt: Date }) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/status',
      summary: 'The host at a glance: queues, lag, slow webhook endpoints',
      responses: {
        200: { description: 'Status', content: json(HostStatus) },
        ...OPERATOR_ONLY_ERRORS,
      },
    }),
    async (c) => c.json(await hostStatus(ctx, info), 200),
  );
  return app;
}
