import { createRoute, z } from '@hono/zod-openapi';
import { generateSecret } from '@platform/webhooks';
import { badRequest, HttpError, notFound } from '../errors.js';
import type { HostContext } from '../services/context.js';
import { WEBHOOK_INTEGRATION } from '../services/context.js';
import { getInstallation } from '../services/installations.js';
import { isStorageError, type JobWithAttempts } from '../storage/index.js';
import { createRouter, requireInstallationAccess, requireOperator } from './app-types.js';
import { Delivery, ErrorBody, WebhookEndpoint } from './schemas.js';

/** Rotation overlap: the previous secret stays valid (second `v1=` entry) this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });
const errors = {
  400: { description: 'Invalid request', content: json(ErrorBody) },
  401: { description: 'Missing or wrong token', content: json(ErrorBody) },
  404: { description: 'Not found', content: json(ErrorBody) },
};
const IdParam = z.object({ id: z.string() });
const time = z
  .string()
  .optional()
  .openapi({ description: 'ISO 8601 time or Unix milliseconds', example: '2026-11-22T10:00:00Z' });

/** Parses an ISO time or Unix milliseconds, or answers 400 naming the parameter. */
function parseTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms))
    throw badRequest(`${name} must be an ISO 8601 time or Unix milliseconds; got "${value}".`);
  return ms;
}

/** The API view of a delivery job. */
export function deliveryView(job: JobWithAttempts) {
  const payload = job.payload as { eventType?: string; body?: string };
  let parsed: unknown = payload.body;
  try {
    parsed = JSON.parse(payload.body ?? 'null');
  } catch {
    // keep the raw text
  }
  return {
    id: job.id,
    eventId: job.eventId ?? '',
    eventType: payload.eventType ?? '',
    // held (a slow endpoint's first attempt waiting for its share) is queued to everyone outside storage
    state: job.state === 'held' ? 'queued' : job.state,
    series: job.series,
    ...(job.state === 'queued' ? { nextAttemptAt: new Date(job.runAt).toISOString() } : {}),
    createdAt: new Date(job.createdAt).toISOString(),
    payload: parsed,
    attempts: job.attempts.map((a) => ({
      number: a.number,
      series: a.series,
      startedAt: new Date(a.startedAt).toISOString(),
      durationMs: a.durationMs,
      ...(a.statusCode === null ? {} : { statusCode: a.statusCode }),
      ...(a.error === null ? {} : { error: a.error }),
      ...(a.responseExcerpt === null ? {} : { responseExcerpt: a.responseExcerpt }),
    })),
  };
}

async function requireWebhookInstallation(ctx: HostContext, id: string) {
  const { record } = await getInstallation(ctx, id);
  if (record.integrationName !== WEBHOOK_INTEGRATION) {
    throw new HttpError(
      400,
      'not_a_webhook',
      `Installation "${id}" is of "${record.integrationName}", not of the webhook integration.`,
    );
  }
  return record;
}

/** Routes: webhook secret (get, rotate) and deliveries (list, get, redeliver one or a range). */
export function webhookRoutes(ctx: HostContext) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/installations/{id}/webhook-secret',
      summary:
        "The signing secret of a webhook installation (and the previous one during a rotation); operator or the installation's own token",
      request: { params: IdParam },
      responses: {
        200: {
          description: 'Secret',
          content: json(z.object({ secret: z.string(), previous: z.array(z.string()).optional() })),
        },
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      requireInstallationAccess(c.get('principal'), id);
      await requireWebhookInstallation(ctx, id);
      const [secret, ...previous] = await ctx.storage.webhookSecrets.active(id, Date.now());
      if (!secret) throw notFound(`The webhook secret of "${id}"`);
      return c.json({ secret, ...(previous.length ? { previous } : {}) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/installations/{id}/webhook-secret/rotate',
      summary:
        'Rotate the signing secret; the previous one stays valid for 24 hours (two v1= entries meanwhile)',
      request: { params: IdParam },
      responses: {
        200: {
          description: 'New secret',
          content: json(z.object({ secret: z.string(), previousExpiresAt: z.string() })),
        },
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      requireInstallationAccess(c.get('principal'), id);
      await requireWebhookInstallation(ctx, id);
      const secret = generateSecret();
      const now = Date.now();
      await ctx.storage.webhookSecrets.rotate(id, secret, ROTATION_OVERLAP_MS, now);
      return c.json({ secret, previousExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString() }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/installations/{id}/deliveries',
      summary: 'Deliveries of a webhook installation, newest first, each with its attempts',
      request: {
        params: IdParam,
        query: z.object({
          state: z.enum(['queued', 'running', 'succeeded', 'failed', 'exhausted', 'cancelled']).optional(),
          since: time,
          until: time,
          limit: z.coerce.number().int().min(1).max(500).optional(),
          cursor: z.string().optional(),
        }),
      },
      responses: {
        200: {
          description: 'Deliveries',
          content: json(
            z.object({
              deliveries: z.array(Delivery),
              nextCursor: z.string().nullable(),
              endpoint: WebhookEndpoint,
            }),
          ),
        },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const { id } = c.req.valid('param');
      await requireWebhookInstallation(ctx, id);
      const q = c.req.valid('query');
      const since = parseTime('since', q.since);
      const until = parseTime('until', q.until);
      const page = await ctx.storage.jobs
        .listDeliveries(id, {
          ...(q.state ? { state: q.state } : {}),
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
          ...(q.limit ? { limit: q.limit } : {}),
          ...(q.cursor ? { cursor: q.cursor } : {}),
        })
        .catch((error: unknown) => {
          if (isStorageError(error) && error.code === 'invalid') throw badRequest(error.message);
          throw error;
        });
      const slow = ctx.isSlowInstallation?.(id) ?? false;
      return c.json(
        {
          deliveries: page.items.map(deliveryView),
          nextCursor: page.nextCursor,
          endpoint: { slow, maxInFlight: slow ? ctx.config.deliveryConcurrencyPerInstallation : null },
        },
        200,
      );
    },
  );

  const DeliveryParams = z.object({ id: z.string(), deliveryId: z.string() });
  const loadDelivery = async (id: string, deliveryId: string) => {
    await requireWebhookInstallation(ctx, id);
    const job = await ctx.storage.jobs.getJob(deliveryId);
    if (!job || job.installationId !== id || job.kind !== 'deliver')
      throw notFound(`Delivery "${deliveryId}"`);
    return job;
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/installations/{id}/deliveries/{deliveryId}',
      summary: 'One delivery with all its attempts',
      request: { params: DeliveryParams },
      responses: { 200: { description: 'Delivery', content: json(Delivery) }, ...errors },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const { id, deliveryId } = c.req.valid('param');
      return c.json(deliveryView(await loadDelivery(id, deliveryId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/installations/{id}/deliveries/{deliveryId}/redeliver',
      summary: 'Redeliver a finished delivery as a new attempt series (same event id)',
      request: { params: DeliveryParams },
      responses: {
        202: { description: 'Queued', content: json(Delivery) },
        409: { description: 'Still in progress', content: json(ErrorBody) },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const { id, deliveryId } = c.req.valid('param');
      await loadDelivery(id, deliveryId);
      try {
        await ctx.storage.jobs.redeliver(deliveryId, Date.now());
      } catch (error) {
        if (isStorageError(error) && error.code === 'conflict') {
          throw new HttpError(
            409,
            'delivery_in_progress',
            'This delivery is still queued or running; redeliver it once it has finished.',
          );
        }
        throw error;
      }
      ctx.notify.deliveries();
      return c.json(deliveryView(await loadDelivery(id, deliveryId)), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/installations/{id}/deliveries/redeliver',
      summary: 'Redeliver every failed or exhausted delivery created in a time range',
      request: {
        params: IdParam,
        body: {
          required: true,
          content: json(
            z
              .object({
                since: time,
                until: time,
                states: z
                  .array(z.enum(['failed', 'exhausted', 'succeeded']))
                  .min(1)
                  .optional(),
              })
              .strict(),
          ),
        },
      },
      responses: {
        202: { description: 'Queued', content: json(z.object({ redelivered: z.number().int() })) },
        ...errors,
      },
    }),
    async (c) => {
      requireOperator(c.get('principal'));
      const { id } = c.req.valid('param');
      await requireWebhookInstallation(ctx, id);
      const body = c.req.valid('json');
      const since = parseTime('since', body.since);
      const until = parseTime('until', body.until);
      const count = await ctx.storage.jobs.redeliverRange(
        id,
        {
          ...(body.states ? { states: body.states } : {}),
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
        },
        Date.now(),
      );
      if (count > 0) ctx.notify.deliveries();
      return c.json({ redelivered: count }, 202);
    },
  );

  return app;
}
