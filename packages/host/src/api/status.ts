import { createRoute } from '@hono/zod-openapi';
import type { HostContext } from '../services/context.js';
import type { QueueStats } from '../storage/index.js';
import { createRouter, requireOperator } from './app-types.js';
import { ErrorBody, HostStatus } from './schemas.js';

function queueState(stats: readonly QueueStats[], kind: QueueStats['kind'], now: number) {
  const s = stats.find((x) => x.kind === kind);
  return {
    queued: (s?.queued ?? 0) + (s?.held ?? 0),
    due: s?.due ?? 0,
    held: s?.held ?? 0,
    running: s?.running ?? 0,
    oldestDueAgeSeconds: s?.oldestDueAt == null ? 0 : Math.max(0, (now - s.oldestDueAt) / 1000),
  };
}

function originOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * `GET /v1/status` (operator): the queues (deliveries and invocations: queued, due, held, running, lag)
 * and the webhook endpoints held to their fair share now. What the dashboard's Host page shows; for
 * Prometheus, see `GET /metrics`.
 */
export function statusRoutes(ctx: HostContext, info: { version: string; startedAt: Date }) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/status',
      summary: 'The host at a glance: queues, lag, slow webhook endpoints',
      responses: {
        200: { description: 'Status', content: { 'application/json': { schema: HostStatus } } },
        401: {
          description: 'Missing or wrong token',
          content: { 'application/json': { schema: ErrorBody } },
        },
        403: {
          description: 'Not the operator token',
          content: { 'application/json': { schema: ErrorBody } },
        },
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const now = Date.now();
      const stats = await ctx.storage.jobs.queueStats(now);
      const slowEndpoints = [];
      for (const id of ctx.slowInstallations?.() ?? []) {
        const installation = await ctx.storage.installations.get(id);
        if (!installation) continue;
        slowEndpoints.push({
          installationId: id,
          integration: installation.integrationName,
          target: installation.target,
          targetId: installation.spaceId ?? installation.siteId ?? installation.organizationId,
          origin: originOf(installation.configuration.url),
        });
      }
      return c.json(
        {
          version: info.version,
          startedAt: info.startedAt.toISOString(),
          deliveries: queueState(stats, 'deliver', now),
          invocations: queueState(stats, 'invoke', now),
          slowEndpoints,
        },
        200,
      );
    },
  );
  return app;
}
