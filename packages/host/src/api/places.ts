import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getSite, getSpace } from '../self-api/index.js';
import type { HostContext } from '../services/context.js';
import type { HostEnv } from './app-types.js';
import { accessFirst, createGuardedRouter } from './authorize.js';
import { SpaceParam } from './documents.js';
import { TOKEN_ERRORS } from './responses.js';
import { route } from './route.js';
import { SiteInfo, SpaceInfo } from './schemas.js';

const SiteParam = z.object({ siteId: z.string().min(1).max(256).openapi({ example: 'site_1' }) });
/**
 * The spaces and sites integrations read through `context.api` (`api.spaces.getSpaceById`,
 * `api.orgs.getSiteById`; docs/host-api-from-integrations.md).
 *
 * @example
 * app.route('/', placeRoutes(ctx));
 */
export function placeRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  // Each place is read once before the validators (the access check: a caller without access learns
  // nothing of them, like the document routes), then again for the answer.
  const space = (c: Context<HostEnv>) => getSpace(ctx, c.get('principal'), c.req.param('spaceId') ?? '');
  const site = (c: Context<HostEnv>) => getSite(ctx, c.get('principal'), c.req.param('siteId') ?? '');
  app.openapi(
    route('GET /v1/spaces/{spaceId}', {
      middleware: [accessFirst(space)],
      summary: 'Get a space: its owner and document revision (operator, or an installation in the space)',
      params: SpaceParam,
      ok: [200, 'The space', SpaceInfo],
      errors: TOKEN_ERRORS,
    }),
    async (c) => c.json(await space(c), 200),
  );
  app.openapi(
    route('GET /v1/sites/{siteId}', {
      middleware: [accessFirst(site)],
      summary: 'Get a site: its owner (operator, or an installation in the site)',
      params: SiteParam,
      ok: [200, 'The site', SiteInfo],
      errors: TOKEN_ERRORS,
    }),
    async (c) => c.json(await site(c), 200),
  );
  return app;
}
