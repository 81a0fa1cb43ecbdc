import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import { integrationView, publish } from '../services/integrations.js';
import { createRouter, requireOperator } from './app-types.js';
import { ErrorBody, Integration, PublishBody } from './schemas.js';

const errors = {
  400: { description: 'Invalid manifest or request', content: { 'application/json': { schema: ErrorBody } } },
  401: { description: 'Missing or wrong token', content: { 'application/json': { schema: ErrorBody } } },
};

/** Routes: publish, list and get integrations. */
export function integrationRoutes(ctx: HostContext) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/integrations',
      summary: 'Publish an integration version (manifest + built bundle)',
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: PublishBody.extend({ version: z.string().optional() }) } },
        },
      },
      responses: {
        201: { description: 'Published', content: { 'application/json': { schema: Integration } } },
        409: { description: 'Version exists', content: { 'application/json': { schema: ErrorBody } } },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const body = c.req.valid('json');
      const record = await publish(ctx, body);
      return c.json(integrationView(ctx, record), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/integrations',
      summary: 'List published integrations (latest version of each)',
      responses: {
        200: {
          description: 'Integrations',
          content: { 'application/json': { schema: z.object({ integrations: z.array(Integration) }) } },
        },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const list = await ctx.storage.integrations.list();
      return c.json({ integrations: list.map((record) => integrationView(ctx, record)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/integrations/{name}',
      summary: 'Get the latest version of an integration',
      request: { params: z.object({ name: z.string() }) },
      responses: {
        200: { description: 'Integration', content: { 'application/json': { schema: Integration } } },
        404: { description: 'Not found', content: { 'application/json': { schema: ErrorBody } } },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const record = await ctx.storage.integrations.getLatest(c.req.valid('param').name);
      if (!record) throw notFound(`Integration "${c.req.valid('param').name}"`);
      return c.json(integrationView(ctx, record), 200);
    },
  );

  return app;
}
