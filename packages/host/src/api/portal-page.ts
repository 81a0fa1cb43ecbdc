import { portalAssets, servePortal } from '@platform/dashboard';
import { contentBase, type HostContext } from '../services/context.js';
import { createRouter } from './app-types.js';

/**
 * The subscriber portal page on the content origin: `/portal/` and its assets (built by
 * `@platform/dashboard`), with a Content-Security-Policy that loads scripts and styles from
 * `/portal/assets/` only, connects to the API's origin only, and may be framed only by
 * `PLATFORM_PORTAL_FRAME_ANCESTORS` (default: nobody). See docs/portal.md.
 *
 * @example
 * app.route('/', portalPageRoutes(ctx));
 */
export function portalPageRoutes(ctx: HostContext, options: { dir?: string } = {}) {
  const dir = options.dir ?? portalAssets().dir;
  const app = createRouter();
  app.on(['GET', 'HEAD'], ['/portal', '/portal/*'], async (c, next) => {
    const response = await servePortal(c.req.raw, dir, {
      contentBase: contentBase(ctx),
      apiOrigin: new URL(ctx.baseUrl()).origin,
      frameAncestors: ctx.config.portalFrameAncestors,
    });
    return response ?? next();
  });
  return app;
}
