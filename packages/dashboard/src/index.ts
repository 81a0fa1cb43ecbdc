import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export {
  PORTAL_PATH,
  type PortalServeOptions,
  portalCsp,
  portalHeaders,
  servePortal,
} from './portal-serve.js';
export {
  API_REFERENCE_PATH,
  cacheControlOf,
  contentTypeOf,
  DASHBOARD_CSP,
  type DashboardServeOptions,
  dashboardCsp,
  isApiPath,
  securityHeaders,
  serveDashboard,
} from './serve.js';

/**
 * Where the built browser assets are (`packages/dashboard/dist/public`: index.html, and the hashed
 * JavaScript and CSS under `assets/`). Works from the sources (`src/`) and from the build (`dist/`).
 *
 * @example
 * const { dir } = dashboardAssets();
 * const response = await serveDashboard(request, dir);
 */
export function dashboardAssets(): { dir: string } {
  const packageRoot = fileURLToPath(new URL('..', import.meta.url));
  return { dir: join(packageRoot, 'dist', 'public') };
}

/**
 * Where the built subscriber portal is (`packages/dashboard/dist/portal`: index.html, and the hashed
 * JavaScript and CSS under `assets/`), served by the host on its content origin at `/portal/`.
 *
 * @example
 * const response = await servePortal(request, portalAssets().dir, { contentBase, apiOrigin, frameAncestors: [] });
 */
export function portalAssets(): { dir: string } {
  const packageRoot = fileURLToPath(new URL('..', import.meta.url));
  return { dir: join(packageRoot, 'dist', 'portal') };
}
