import { z } from '@hono/zod-openapi';
import type { HostContext } from '../services/context.js';
import {
  getDocument,
  requireBlockAccess,
  requireReadAccess,
  saveDocument,
  updateBlockProps,
} from '../services/documents.js';
import { accessFirst, createGuardedRouter } from './authorize.js';
import { errorResponse, TOKEN_ERRORS } from './responses.js';
import { route } from './route.js';
import { PatchBlockPropsBody, PutSpaceDocumentBody, SpaceDocument } from './schemas.js';

/** The `{spaceId}` of a space's routes. */
export const SpaceParam = z.object({
  spaceId: z.string().min(1).max(256).openapi({ example: 'space_docs' }),
});

/**
 * Routes of a space's document (docs/documents.md "Storage and API"): get, save, update one block's props.
 *
 * @example
 * app.route('/', documentRoutes(ctx));
 */
export function documentRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  // Access is checked before the validators, like `operatorOnly` (docs/security.md "Who may do what").
  const reader = accessFirst((c) => requireReadAccess(ctx, c.get('principal'), c.req.param('spaceId') ?? ''));
  const blockWriter = accessFirst((c) =>
    requireBlockAccess(ctx, c.get('principal'), c.req.param('spaceId') ?? '', c.req.param('blockId') ?? ''),
  );

  app.openapi(
    route('GET /v1/spaces/{spaceId}/document', {
      middleware: [reader],
      summary:
        "Get a space's document: text and blocks (operator, or an installation in the space with space:content:read)",
      params: SpaceParam,
      ok: [200, 'The document', SpaceDocument],
      errors: TOKEN_ERRORS,
    }),
    async (c) => c.json(await getDocument(ctx, c.req.valid('param').spaceId), 200),
  );

  app.openapi(
    route('PUT /v1/spaces/{spaceId}/document', {
      summary: "Save a space's document (operator); compare-and-set with `baseRevision`",
      params: SpaceParam,
      body: PutSpaceDocumentBody,
      ok: [200, 'Saved', SpaceDocument],
      errors: {
        409: errorResponse('Saved elsewhere meanwhile (`document_changed`, with the current `revision`)'),
        ...TOKEN_ERRORS,
      },
    }),
    async (c) => c.json(await saveDocument(ctx, c.req.valid('param').spaceId, c.req.valid('json')), 200),
  );

  app.openapi(
    route('PATCH /v1/spaces/{spaceId}/document/blocks/{blockId}', {
      middleware: [blockWriter],
      summary:
        "Replace one block's props (`@editor.node.updateProps`): operator, or the installation that renders the block",
      params: SpaceParam.extend({ blockId: z.string().min(1).openapi({ example: 'blk_3f9c' }) }),
      body: PatchBlockPropsBody,
      ok: [200, 'Saved', SpaceDocument],
      errors: {
        404: errorResponse('No such block in the document'),
        409: errorResponse('Kept changing while saving (`document_changed`)'),
        ...TOKEN_ERRORS,
      },
    }),
    async (c) => {
      const { spaceId, blockId } = c.req.valid('param');
      return c.json(
        await updateBlockProps(ctx, c.get('principal'), spaceId, blockId, c.req.valid('json').props),
        200,
      );
    },
  );

  return app;
}
