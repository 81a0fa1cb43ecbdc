import { z } from '@hono/zod-openapi';
import { ACCESS, describeAccess } from '../access/rules.js';
import { badRequest, notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import { createRouter } from './app-types.js';
import { ErrorBody } from './schemas.js';

/** Path prefix of the asset route; requests below it need no token. */
export const ASSETS_PATH = '/v1/assets/';

const HASH = /^[0-9a-f]{64}$/;

/**
 * `GET /v1/assets/{hash}`: an integration's icon or preview image, by the SHA-256 of its bytes. No
 * token: an `<img>` cannot send one, and the address is only known to those who can read the
 * integration (or already hold the file). Immutable, so cached for a year; served with a sandboxing
 * CSP and `nosniff`, so an SVG opened directly runs no script on the host's origin.
 */
export function assetRoutes(ctx: HostContext) {
  const app = createRouter();
  app.get(`${ASSETS_PATH}:hash`, async (c) => {
    const hash = c.req.param('hash');
    if (!HASH.test(hash))
      throw badRequest('An asset id is the SHA-256 of its bytes: 64 lowercase hex characters.');
    const etag = `"${hash}"`;
    const headers = {
      'cache-control': 'public, max-age=31536000, immutable',
      etag,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((t) => t.trim() === etag)
    ) {
      return c.body(null, 304, headers);
    }
    const asset = await ctx.storage.assets.get(hash);
    if (!asset) throw notFound(`Asset "${hash}"`);
    return c.body(new Uint8Array(asset.data), 200, { ...headers, 'content-type': asset.contentType });
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/v1/assets/{hash}',
    summary: "An integration's icon or preview image (no token needed; immutable)",
    description: describeAccess(ACCESS['GET /v1/assets/{hash}']),
    'x-access': ACCESS['GET /v1/assets/{hash}'],
    security: [],
    request: { params: z.object({ hash: z.string().regex(HASH) }) },
    responses: {
      200: {
        description: 'The image, with its media type',
        content: { 'image/*': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      304: { description: 'Not modified (If-None-Match matched the ETag)' },
      400: { description: 'Not an asset id', content: { 'application/json': { schema: ErrorBody } } },
      404: { description: 'No such asset', content: { 'application/json': { schema: ErrorBody } } },
    },
  });
  return app;
}
