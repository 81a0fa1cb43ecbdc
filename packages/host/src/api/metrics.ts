import { bearerToken, tokenMatcher } from '../auth.js';
import { unauthorized } from '../errors.js';
import { METRICS_CONTENT_TYPE, scrapeText } from '../metrics/index.js';
import type { HostContext } from '../services/context.js';
import { createRouter } from './app-types.js';

/** What `GET /metrics` needs besides the host context. */
export interface MetricsRouteOptions {
  /** Accepts the operator token (and only it). */
  isOperator(token: string): boolean;
  /** The delivery engine's metrics text ('' when it cannot answer). */
  deliveryMetrics(): Promise<string>;
}

/**
 * `GET /metrics`: Prometheus text of the host (events, invocations, the queue, webhook attempts, slow
 * endpoints, Node process). Bearer token: `PLATFORM_METRICS_TOKEN` (metrics only) or the operator's.
 */
export function metricsRoutes(ctx: HostContext, options: MetricsRouteOptions) {
  const app = createRouter();
  const metricsToken = ctx.config.metricsToken;
  const isMetricsToken = metricsToken ? tokenMatcher(metricsToken) : () => false;
  app.get('/metrics', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === null) {
      throw unauthorized(
        'GET /metrics needs a bearer token: PLATFORM_METRICS_TOKEN (metrics only) or the operator token.',
      );
    }
    if (!isMetricsToken(token) && !options.isOperator(token)) {
      throw unauthorized('The bearer token is not valid for /metrics.');
    }
    const text = await scrapeText(ctx.metrics.registry, [await options.deliveryMetrics()]);
    return c.body(text, 200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
  return app;
}
