import { z } from '@hono/zod-openapi';
import type { Manifest } from '@platform/manifest';
import type { ExecutorSelector } from '../invocation/invoker.js';
import type { HostContext } from '../services/context.js';
import {
  publishedScript,
  publishedScriptUrl,
  scriptCacheOf,
  siteScriptTargets,
} from '../services/published-scripts.js';
import { createRouter } from './app-types.js';
import { createGuardedRouter } from './authorize.js';

import { contentOrigins, manifestSources } from './content-policy.js';
import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { route } from './route.js';
import { PublishedScriptList } from './schemas.js';

/** The path of a site's script of one integration (anonymous, like public endpoints). */
export const PUBLISHED_SCRIPT_PATH = /^\/v1\/sites\/[^/]+\/integrations\/[^/]+\/script\.js$/;

/**
 * `GET /v1/sites/{siteId}/integrations/{name}/script.js`: the script the installation of `name` on the
 * site answers from its published-script hook (docs/published-scripts.md), for the site's pages. No
 * token; served on the content origin (and, like public endpoints, on the API's under the same path).
 *
 * @example
 * app.route('/', publishedScriptRoutes(ctx, executors));
 */
export function publishedScriptRoutes(ctx: HostContext, executors: ExecutorSelector) {
  const app = createRouter();
  app.get('/v1/sites/:siteId/integrations/:name/script.js', async (c) => {
    const siteId = c.req.param('siteId');
    const name = c.req.param('name');
    const script = await publishedScript(ctx, executors, scriptCacheOf(ctx), siteId, name);
    const headers = {
      'cache-control': script.cacheControl,
      etag: script.etag,
      'x-content-type-options': 'nosniff',
      // Any site may load it (no credentials are involved); opened as a page, it runs nothing.
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'content-security-policy': "default-src 'none'; sandbox",
    };
    if (script.body === null) return c.body(null, 204, headers);
    if (c.req.header('if-none-match') === script.etag) return c.body(null, 304, headers);
    return c.body(script.body as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'content-type': 'application/javascript; charset=utf-8',
    });
  });
  return app;
}

/**
 * `GET /v1/sites/{siteId}/published-scripts` (operator): what a site renderer includes in the site's
 * pages, one entry per active installation on the site whose integration has `site:script:inject`,
 * with the CSP sources the site's policy must allow.
 *
 * @example
 * app.route('/', publishedScriptListRoutes(ctx));
 */
export function publishedScriptListRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('GET /v1/sites/{siteId}/published-scripts', {
      summary:
        "The scripts a site's pages include (the integrations' published-script hooks), with the CSP sources they need",
      params: z.object({ siteId: z.string() }),
      ok: [200, 'Scripts, oldest installation first', PublishedScriptList],
      errors: { ...OPERATOR_ONLY_ERRORS, 400: errorResponse('Invalid request') },
    }),
    async (c) => {
      const { siteId } = c.req.valid('param');
      const origins = contentOrigins(ctx);
      const targets = await siteScriptTargets(ctx, siteId);
      const scripts = targets.map((target) => {
        const url = publishedScriptUrl(ctx, target);
        const sources = manifestSources(
          (target.integration.manifest as Manifest).contentSecurityPolicy,
          origins,
        );
        const own = new URL(url).origin;
        const scriptSrc = sources['script-src'] ?? [];
        return {
          installationId: target.installation.id,
          integration: target.integration.name,
          url,
          contentSecurityPolicy: {
            ...sources,
            'script-src': scriptSrc.includes(own) ? scriptSrc : [own, ...scriptSrc],
          },
        };
      });
      return c.json({ scripts }, 200);
    },
  );
  return app;
}
