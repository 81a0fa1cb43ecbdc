import { dashboardAssets, serveDashboard } from '@platform/dashboard';
import { createRouter } from './app-types.js';

/**
 * The operator's web dashboard at `/` (same origin as the API): the built assets of
 * `@platform/dashboard`, with `index.html` for `/` and every other non-API path (the app routes
 * in the browser). API paths (`/v1/*`, `/healthz`, `/openapi.json`) fall through to the API.
 * Responses carry a strict Content-Security-Policy (`default-src 'self'`, no inline script),
 * `nosniff`, `no-referrer`, and `Cache-Control` (hashed assets immutable, `index.html` no-cache).
 * `contentOrigin`: the host's content origin, whose webframes and images ContentKit shows.
 *
 * @example
 * app.route('/', dashboardRoutes()); // register last, after the API routes
 */
export function dashboardRoutes(options: { dir?: string; contentOrigin?: () => string | undefined } = {}) {
  const dir = options.dir ?? dashboardAssets().dir;
  const app = createRouter();
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const contentOrigin = options.contentOrigin?.();
    const response = await serveDashboard(c.req.raw, dir, contentOrigin ? { contentOrigin } : {});
    if (!response) return next();
    return response;
  });
  return app;
}
