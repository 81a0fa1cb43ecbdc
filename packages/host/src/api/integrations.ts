import { createRoute, z } from '@hono/zod-openapi';
import { conflict, notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import { WEBHOOK_INTEGRATION } from '../services/context.js';
import { integrationView, publish } from '../services/integrations.js';
import { createRouter, operatorOnly } from './app-types.js';
import { errorResponse, OPERATOR_ONLY_ERRORS } from './responses.js';
import { Integration, IntegrationList, PublishIntegrationBody } from './schemas.js';

const errors = { 400: errorResponse('Invalid manifest or request'), ...OPERATOR_ONLY_ERRORS };

/** Routes: publish, list, get and unpublish integrations. */
export function integrationRoutes(ctx: HostContext) {
  const app = createRouter();

  app.openapi(
    createRoute({
      middleware: [operatorOnly],
      method: 'post',
      path: '/v1/integrations',
      summary: 'Publish an integration version (manifest + built bundle)',
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: PublishIntegrationBody } },
        },
      },
      responses: {
        201: { description: 'Published', content: { 'application/json': { schema: Integration } } },
        409: errorResponse('Version exists'),
        ...errors,
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const record = await publish(ctx, body);
      return c.json(integrationView(ctx, record), 201);
    },
  );

  app.openapi(
    createRoute({
      middleware: [operatorOnly],
      method: 'get',
      path: '/v1/integrations',
      summary: 'List published integrations (latest version of each)',
      responses: {
        200: {
          description: 'Integrations',
          content: { 'application/json': { schema: IntegrationList } },
        },
        ...errors,
      },
    }),
    async (c) => {
      const list = await ctx.storage.integrations.list();
      return c.json({ integrations: list.map((record) => integrationView(ctx, record)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      middleware: [operatorOnly],
      method: 'get',
      path: '/v1/integrations/{name}',
      summary: 'Get the latest version of an integration',
      request: { params: z.object({ name: z.string() }) },
      responses: {
        200: { description: 'Integration', content: { 'application/json': { schema: Integration } } },
        404: errorResponse('Not found'),
        ...errors,
      },
    }),
    async (c) => {
      const record = await ctx.storage.integrations.getLatest(c.req.valid('param').name);
      if (!record) throw notFound(`Integration "${c.req.valid('param').name}"`);
      return c.json(integrationView(ctx, record), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/integrations/{name}',
      middleware: [operatorOnly],
      summary: 'Unpublish an integration: every version (refused while it is installed)',
      request: { params: z.object({ name: z.string() }) },
      responses: {
        204: { description: 'Unpublished' },
        404: errorResponse('Not found'),
        409: errorResponse('Still installed, or built in'),
        ...errors,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      if (name === WEBHOOK_INTEGRATION) {
        throw conflict(
          `"${name}" is built into the host and published again at every start; it cannot be unpublished.`,
        );
      }
      const installed = await ctx.storage.installations.list({ integrationName: name });
      if (installed.length > 0) {
        const ids = installed.slice(0, 5).map((i) => i.id);
        throw conflict(
          `Integration "${name}" is installed ${installed.length} time(s) (${ids.join(', ')}${installed.length > 5 ? ', ...' : ''}); uninstall those first.`,
        );
      }
      if ((await ctx.storage.integrations.remove(name)) === 0) throw notFound(`Integration "${name}"`);
      return c.body(null, 204);
    },
  );

  return app;
}
