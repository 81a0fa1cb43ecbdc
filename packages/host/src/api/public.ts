import { z } from '@hono/zod-openapi';
import { HOST_EVENT } from '@platform/events';
import type { Context } from 'hono';
import { HttpError, notFound } from '../errors.js';
import type { ExecutorError } from '../executor/index.js';
import { type ExecutorSelector, invoke } from '../invocation/invoker.js';
import { checkRenderAnswer, RenderCache } from '../render/index.js';
import { contentBase, type HostContext } from '../services/context.js';
import { newEventId } from '../services/dispatch.js';
import { getInstallation } from '../services/installations.js';
import { createRouter, type HostEnv } from './app-types.js';
import { createGuardedRouter } from './authorize.js';
import { contentPolicyOf } from './content-policy.js';
import { isolateIntegrationResponse } from './isolation.js';
import { errorResponse } from './responses.js';
import { route } from './route.js';
import { RenderBody, Rendered } from './schemas.js';

/** The 413 of a request body over `PLATFORM_INVOCATION_MAX_REQUEST_BYTES`, naming whom it was for. */
function requestTooLarge(integration: string, installationId: string, limit: number): HttpError {
  return new HttpError(
    413,
    'body_too_large',
    `The request body for integration ${integration}, installation ${installationId} is over the limit of ${limit} bytes (PLATFORM_INVOCATION_MAX_REQUEST_BYTES).`,
  );
}

/** Maps an executor failure to an HTTP error the caller understands. */
function executorFailure(error: ExecutorError): HttpError {
  const status = error.code === 'timeout' ? 504 : 502;
  return new HttpError(status, `integration_${error.code}`, error.message);
}

/** Reads a request body, refusing (the error of `over`) as soon as it passes `limit` bytes. */
async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  over: () => HttpError,
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw over();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
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
 * The public endpoints (every request below `{publicEndpoint}` becomes a `fetch` event with the raw
 * body), on the API's origin or on the content origin; either way what the integration answers goes
 * through {@link isolateIntegrationResponse}.
 *
 * @example
 * app.route('/', publicEndpointRoutes(ctx, executors, 'content'));
 */
export function publicEndpointRoutes(
  ctx: HostContext,
  executors: ExecutorSelector,
  origin: 'api' | 'content',
) {
  const app = createRouter();
  const handlePublic = async (c: Context<HostEnv>) => {
    const name = c.req.param('name') ?? '';
    const id = c.req.param('id') ?? '';
    const { record, integration } = await loadTarget(ctx, id);
    if (integration.name !== name) throw notFound(`Installation "${id}" of "${name}"`);
    const limit = ctx.config.invocationLimits.requestBytes;
    if (Number(c.req.header('content-length') ?? 0) > limit) throw requestTooLarge(name, id, limit);
    const body = ['GET', 'HEAD'].includes(c.req.method)
      ? undefined
      : await readAtMost(c.req.raw.body, limit, () => requestTooLarge(name, id, limit));
    const incoming = new URL(c.req.url);
    // The URL as the integration advertises it (its public endpoint), whichever origin it came in on.
    const url = `${contentBase(ctx)}${incoming.pathname}${incoming.search}`;
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, key) => {
      if (key !== 'authorization' && key !== 'cookie') headers[key] = value;
    });
    const outcome = await invoke(
      ctx,
      executors,
      integration,
      record,
      { type: HOST_EVENT.fetch, eventId: newEventId(), request: { method: c.req.method, url, headers } },
      body,
    );
    if (!outcome.ok) throw executorFailure(outcome.error);
    return isolateIntegrationResponse(outcome.response, origin, contentPolicyOf(ctx, integration));
  };
  app.all('/v1/integrations/:name/installations/:id/public', handlePublic);
  app.all('/v1/integrations/:name/installations/:id/public/*', handlePublic);
  return app;
}

/**
 * The API's routes that reach integrations: the public endpoints (also served there, sandboxed, for
 * the dashboard's own same-origin calls and for URLs handed out before the content origin existed)
 * and component rendering.
 */
export function publicRoutes(ctx: HostContext, executors: ExecutorSelector) {
  const app = createGuardedRouter(ctx);
  const renders = new RenderCache();
  app.route('/', publicEndpointRoutes(ctx, executors, 'api'));

  app.openapi(
    route('POST /v1/installations/{id}/render', {
      summary: `Render a component of an installation, optionally dispatching an action first (${HOST_EVENT.uiRender})`,
      params: z.object({ id: z.string() }),
      body: RenderBody,
      ok: [200, 'Rendered element and new state', Rendered],
      errors: {
        404: errorResponse('Unknown installation or component'),
        502: errorResponse('The integration failed'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { record, integration } = await loadTarget(ctx, id);
      const body = c.req.valid('json');
      const cacheKey = RenderCache.keyOf(record.id, integration.bundleHash, body);
      const cached = renders.get(cacheKey);
      if (cached !== undefined) {
        return isolateIntegrationResponse(
          c.json(cached, 200, { 'x-render-cache': 'hit' }),
          'api',
          contentPolicyOf(ctx, integration),
        ) as never;
      }
      const outcome = await invoke(ctx, executors, integration, record, {
        type: HOST_EVENT.uiRender,
        eventId: newEventId(),
        ...body,
      });
      if (!outcome.ok) throw executorFailure(outcome.error);
      // A 200 answer is validated ContentKit (docs/contentkit.md); error bodies pass through. Either
      // way it is isolated like any integration answer on this origin.
      const answer = await checkRenderAnswer(outcome.response);
      renders.set(cacheKey, answer.body, answer.maxAge);
      return isolateIntegrationResponse(
        c.json(answer.body, answer.status as 200),
        'api',
        contentPolicyOf(ctx, integration),
      ) as never;
    },
  );

  return app;
}
