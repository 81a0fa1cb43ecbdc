import type { HostContext } from '../services/context.js';
import { deliveryStats } from '../services/stats.js';
import { hostStatus } from '../services/status.js';
import { createGuardedRouter } from './authorize.js';

import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { route } from './route.js';
import { DeliveryStats, HostStatus, StatsQuery } from './schemas.js';

/**
 * `GET /v1/status` (operator): the queues (deliveries and invocations: queued, due, held, running, lag)
 * and the webhook endpoints held to their fair share now. What the dashboard's Host page shows; for
 * Prometheus, see `GET /metrics`.
 */
export function statusRoutes(ctx: HostContext, info: { version: string; startedAt: Date }) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('GET /v1/status', {
      summary: 'The host at a glance: queues, lag, slow webhook endpoints',
      ok: [200, 'Status', HostStatus],
      errors: OPERATOR_ONLY_ERRORS,
    }),
    async (c) => c.json(await hostStatus(ctx, info), 200),
  );
  app.openapi(
    route('GET /v1/stats/deliveries', {
      summary: 'Delivery figures over the last hour, day or week: host-wide, or of one installation',
      description:
        'Buckets of attempts (succeeded, retried, failed), attempt duration and accepted → first attempt percentiles, and the backlog, rolled up each minute from the attempts (docs/operations.md "Charts").',
      query: StatsQuery,
      ok: [200, 'The series', DeliveryStats],
      errors: {
        400: errorResponse('Invalid request'),
        401: errorResponse('Missing or wrong token'),
        403: errorResponse('Not allowed'),
        404: errorResponse('No such installation'),
      },
    }),
    async (c) => {
      const { range, installation } = c.req.valid('query');
      return c.json(await deliveryStats(ctx, { range, installationId: installation ?? null }), 200);
    },
  );
  return app;
}
