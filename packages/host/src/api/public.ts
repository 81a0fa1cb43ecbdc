import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HttpError, notFound } from '../errors.js';
import type { ExecutorError } from '../executor/index.js';
import type { HostContext } from '../services/context.js';
import { newEventId } from '../services/dispatch.js';
import { getInstallation } from '../services/installations.js';
import { type ExecutorSelector, invoke } from '../services/invoker.js';
import { createRouter, type HostEnv, requireOperator } from './app-types.js';
import { ErrorBody } from './schemas.js';

/** Largest request body a public endpoint forwards to an integration. */
export const MAX_PUBLIC_BODY_BYTES = 10 * 1024 * 1024;

/** Maps an executor failure to an HTTP error the caller understands. */
function executorFailure(error: ExecutorError): HttpError {
  const status = error.code === 'timeout' ? 504 : 502;
  return new HttpError(status, `integration_${error.code}`, error.message);
}

async function loadTarget(ctx: HostContext, id: string) {
  const { record, integration } = await getInstallation(ctx, id);
  if (!integration) throw notFound(`The integration of installation "${id}"`);
  if (record.status === 'paused') {
    throw new HttpError(
      409,
      'installation_paused',
      `Installation "${id}" is paused; resume it to use its endpoint.`,
    );
  }
  return { record, integration };
}

/**
 * Public endpoints (every request below `{publicEndpoint}` becomes a `fetch` event with the raw body)
 * and component rendering (`ui_render`).
 */
export function publicRoutes(ctx: HostContext, executors: ExecutorSelector) {
  const app = createRouter();

  const handlePublic = async (c: Context<HostEnv>) => {
    const name = c.req.param('name') ?? '';
    const id = c.req.param('id') ?? '';
    const { record, integration } = await loadTarget(ctx, id);
    if (integration.name !== name) throw notFound(`Installation "${id}" of "${name}"`);
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > MAX_PUBLIC_BODY_BYTES)
      throw new HttpError(
        413,
        'body_too_large',
        `Request bodies are limited to ${MAX_PUBLIC_BODY_BYTES} bytes.`,
      );
    const body = ['GET', 'HEAD'].includes(c.req.method)
      ? undefined
      : new Uint8Array(await c.req.arrayBuffer());
    if (body && body.byteLength > MAX_PUBLIC_BODY_BYTES) {
      throw new HttpError(
        413,
        'body_too_large',
        `Request bodies are limited to ${MAX_PUBLIC_BODY_BYTES} bytes.`,
      );
    }
    const incoming = new URL(c.req.url);
    const url = `${ctx.baseUrl()}${incoming.pathname}${incoming.search}`;
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, key) => {
      if (key !== 'authorization' && key !== 'cookie') headers[key] = value;
    });
    const outcome = await invoke(
      ctx,
      executors,
      integration,
      record,
      { type: 'fetch', eventId: newEventId(), request: { method: c.req.method, url, headers } },
      body,
    );
    if (!outcome.ok) throw executorFailure(outcome.error);
    return outcome.response;
  };
  app.all('/v1/integrations/:name/installations/:id/public', handlePublic);
  app.all('/v1/integrations/:name/installations/:id/public/*', handlePublic);

  const RenderBody = z
    .object({
      componentId: z.string().min(1),
      props: z.record(z.string(), z.unknown()).default({}),
      state: z.record(z.string(), z.unknown()).optional(),
      action: z
        .object({ action: z.string().min(1) })
        .catchall(z.unknown())
        .optional(),
      context: z.record(z.string(), z.unknown()).optional(),
    })
    .strict()
    .openapi('RenderRequest');

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/installations/{id}/render',
      summary: 'Render a component of an installation, optionally dispatching an action first (ui_render)',
      request: {
        params: z.object({ id: z.string() }),
        body: { required: true, content: { 'application/json': { schema: RenderBody } } },
      },
      responses: {
        200: {
          description: 'Rendered element and new state',
          content: {
            'application/json': {
              schema: z.object({ element: z.unknown(), state: z.record(z.string(), z.unknown()) }),
            },
          },
        },
        404: {
          description: 'Unknown installation or component',
          content: { 'application/json': { schema: ErrorBody } },
        },
        502: {
          description: 'The integration failed',
          content: { 'application/json': { schema: ErrorBody } },
        },
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const { id } = c.req.valid('param');
      const { record, integration } = await loadTarget(ctx, id);
      const body = c.req.valid('json');
      const outcome = await invoke(ctx, executors, integration, record, {
        type: 'ui_render',
        eventId: newEventId(),
        ...body,
      });
      if (!outcome.ok) throw executorFailure(outcome.error);
      // The runtime answers JSON for ui_render (element + state, or an error body): pass it through.
      return outcome.response as unknown as never;
    },
  );

  return app;
}
