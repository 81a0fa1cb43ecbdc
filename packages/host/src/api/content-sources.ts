import { z } from '@hono/zod-openapi';
import { syncContentSource } from '../content-sources/index.js';
import type { ExecutorSelector } from '../invocation/invoker.js';
import type { HostContext } from '../services/context.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse } from './responses.js';
import { route } from './route.js';
import { ContentSourceSync, ContentSourceSyncBody } from './schemas.js';

/**
 * `POST /v1/spaces/{spaceId}/content-sources/sync` (operator): fills the space's document with the
 * pages of an installation's content source (docs/content-sources.md).
 *
 * @example
 * app.route('/', contentSourceRoutes(ctx, executors));
 */
export function contentSourceRoutes(ctx: HostContext, executors: ExecutorSelector) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('POST /v1/spaces/{spaceId}/content-sources/sync', {
      summary: "Replace a space's document with the pages an installation's content source generates",
      params: z.object({ spaceId: z.string().min(1).max(256) }),
      body: ContentSourceSyncBody,
      ok: [200, 'The pages stored and the new revision', ContentSourceSync],
      errors: {
        400: errorResponse('Invalid request: not installed in the space, no such source, no scope'),
        401: errorResponse('Missing or wrong token'),
        403: errorResponse('Token not allowed here'),
        404: errorResponse('Unknown installation'),
        409: errorResponse('The installation is not active, or the document changed meanwhile'),
        502: errorResponse('The content source failed or answered something that cannot be stored'),
      },
    }),
    async (c) => {
      const { spaceId } = c.req.valid('param');
      return c.json(await syncContentSource(ctx, executors, spaceId, c.req.valid('json')), 200);
    },
  );
  return app;
}
