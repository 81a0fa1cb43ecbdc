import { z } from '@hono/zod-openapi';
import { badRequest, notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import { queueTask } from '../services/tasks.js';
import { createGuardedRouter } from './authorize.js';
import { errorResponse } from './responses.js';
import { route } from './route.js';
import { QueuedTask, QueueTaskBody } from './schemas.js';

/** Routes: queue an integration task. */
export function taskRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);
  app.openapi(
    route('POST /v1/integrations/{name}/tasks', {
      summary: 'Queue a task the integration runs later, as an `integration_task` event (docs/tasks.md)',
      description:
        'The task is stored in the durable queue before the answer: it survives a restart or a crash of the host, and is retried like any invocation when its handler fails.',
      params: z.object({ name: z.string() }),
      body: QueueTaskBody,
      ok: [201, 'Queued', QueuedTask],
      errors: {
        400: errorResponse('Invalid request'),
        401: errorResponse('Missing or wrong token'),
        403: errorResponse('Token not allowed here'),
        404: errorResponse('No such installation'),
        413: errorResponse('Task too large'),
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const body = c.req.valid('json');
      const principal = c.get('principal');
      let installationId: string;
      if (principal.kind === 'installation') {
        if (body.installationId !== undefined && body.installationId !== principal.installationId) {
          throw badRequest(
            'An installation token queues tasks for its own installation only: leave `installationId` out.',
          );
        }
        installationId = principal.installationId;
      } else {
        if (body.installationId === undefined) {
          throw badRequest('Name the installation the task runs for: `installationId` in the body.');
        }
        installationId = body.installationId;
      }
      const installation = await ctx.storage.installations.get(installationId);
      if (!installation) throw notFound(`Installation "${installationId}"`);
      const queued = await queueTask(ctx, name, installation, body);
      return c.json({ id: queued.id, runAt: new Date(queued.runAt).toISOString() }, 201);
    },
  );
  return app;
}
