import { z } from '@hono/zod-openapi';
import { standardSecret } from '@platform/webhooks';
import { auditInstallation } from '../services/audit.js';
import type { HostContext } from '../services/context.js';
import { rotateSigningKey, webhookPublicKey } from '../services/webhook-public-key.js';
import {
  enableEndpoint,
  getDelivery,
  listDeliveries,
  redeliver,
  redeliverRange,
  rotateWebhookSecret,
  sendTestEvent,
  webhookSecret,
} from '../services/webhooks.js';
import type { JobWithAttempts } from '../storage/index.js';
import { createGuardedRouter } from './authorize.js';

import { errorResponse } from './responses.js';
import { given, route } from './route.js';
import {
  Delivery,
  DeliveryList,
  DeliveryQuery,
  EnableEndpointBody,
  EndpointEnabled,
  Redelivered,
  RedeliverRangeBody,
  RotatedWebhookSecret,
  TestEventBody,
  WebhookPublicKey,
  WebhookSecret,
} from './schemas.js';

/** The Standard Webhooks spelling of the secrets, or undefined when one is not `whsec_` + base64 (set by hand). */
function standardSpelling(secret: string, previous: string[]) {
  try {
    const spelled = previous.map(standardSecret);
    return { secret: standardSecret(secret), ...(spelled.length ? { previous: spelled } : {}) };
  } catch {
    return undefined;
  }
}

const errors = {
  400: errorResponse('Invalid request'),
  401: errorResponse('Missing or wrong token'),
  404: errorResponse('Not found'),
};
const IdParam = z.object({ id: z.string() });

/**
 * The API view of a delivery job; `endpointDisabled`: its endpoint is disabled, so a held or queued one is
 * kept (`held: true`).
 */
export function deliveryView(job: JobWithAttempts, endpointDisabled = false) {
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
    ...(endpointDisabled && (job.state === 'held' || job.state === 'queued') ? { held: true } : {}),
    createdAt: new Date(job.createdAt).toISOString(),
    payload: parsed,
    attempts: job.attempts.map((a) => ({
      number: a.number,
      series: a.series,
      startedAt: new Date(a.startedAt).toISOString(),
      durationMs: a.durationMs,
      ...(a.statusCode === null ? {} : { statusCode: a.statusCode }),
      ...(a.statusCode === null && a.error === null ? { acknowledged: true as const } : {}),
      ...(a.error === null ? {} : { error: a.error }),
      ...(a.responseExcerpt === null ? {} : { responseExcerpt: a.responseExcerpt }),
    })),
  };
}

/** Routes: webhook secret (get, rotate) and deliveries (list, get, redeliver one or a range). */
export function webhookRoutes(ctx: HostContext) {
  const app = createGuardedRouter(ctx);

  app.openapi(
    route('GET /v1/installations/{id}/webhook-secret', {
      summary:
        "The signing secret of a webhook installation (and the previous one during a rotation); operator or the installation's own token",
      params: IdParam,
      ok: [200, 'Secret', WebhookSecret],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { secret, previous } = await webhookSecret(ctx, id);
      await auditInstallation(ctx, c.get('principal'), id, 'webhook_secret.reveal');
      const standardWebhooks = standardSpelling(secret, previous);
      return c.json(
        {
          secret,
          ...(previous.length ? { previous } : {}),
          ...(standardWebhooks ? { standardWebhooks } : {}),
        },
        200,
      );
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/webhook-secret/rotate', {
      summary:
        'Rotate the signing secret; the previous one stays valid for 24 hours (two v1= entries meanwhile)',
      params: IdParam,
      ok: [200, 'New secret', RotatedWebhookSecret],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { secret, previousExpiresAt } = await rotateWebhookSecret(ctx, id);
      await auditInstallation(ctx, c.get('principal'), id, 'webhook_secret.rotate', {
        previousExpiresAt: new Date(previousExpiresAt).toISOString(),
      });
      return c.json({ secret, previousExpiresAt: new Date(previousExpiresAt).toISOString() }, 200);
    },
  );

  app.openapi(
    route('GET /v1/installations/{id}/webhook-public-key', {
      summary:
        "The installation's ed25519 public key (whpk_…), which verifies its webhook-signature v1a entries; made when signature_scheme becomes ed25519",
      params: IdParam,
      ok: [200, 'Public key', WebhookPublicKey],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await webhookPublicKey(ctx, id), 200);
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/webhook-public-key/rotate', {
      summary:
        'Rotate the ed25519 key pair; the previous one keeps signing (a second v1a entry) for 24 hours while receivers take the new public key',
      params: IdParam,
      ok: [200, 'New public key, and the previous one', WebhookPublicKey],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const rotated = await rotateSigningKey(ctx, id);
      await auditInstallation(ctx, c.get('principal'), id, 'webhook_public_key.rotate', {
        publicKey: rotated.publicKey,
        ...(rotated.previous ? { previousExpiresAt: rotated.previous.expiresAt } : {}),
      });
      return c.json(rotated, 200);
    },
  );

  app.openapi(
    route('GET /v1/installations/{id}/deliveries', {
      summary: 'Deliveries of a webhook installation, newest first, each with its attempts',
      params: IdParam,
      query: DeliveryQuery,
      ok: [200, 'Deliveries', DeliveryList],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      const page = await listDeliveries(ctx, id, {
        ...given({ state: q.state, limit: q.limit, cursor: q.cursor }),
        since: q.since,
        until: q.until,
      });
      return c.json(
        {
          deliveries: page.items.map((job) => deliveryView(job, page.endpoint.disabled)),
          nextCursor: page.nextCursor,
          endpoint: page.endpoint,
        },
        200,
      );
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/endpoint/enable', {
      summary:
        'Enable a disabled webhook endpoint again; the deliveries kept meanwhile are delivered (default) or cancelled',
      params: IdParam,
      optionalBody: EnableEndpointBody,
      ok: [200, 'Enabled', EndpointEnabled],
      errors: { 409: errorResponse('The endpoint is not disabled'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json') ?? {};
      const result = await enableEndpoint(ctx, id, body.held ?? 'deliver');
      await auditInstallation(ctx, c.get('principal'), id, 'endpoint.enable', {
        held: body.held ?? 'deliver',
        delivering: result.delivering,
        cancelled: result.cancelled,
      });
      return c.json(result, 200);
    },
  );

  const DeliveryParams = z.object({ id: z.string(), deliveryId: z.string() });

  app.openapi(
    route('GET /v1/installations/{id}/deliveries/{deliveryId}', {
      summary: 'One delivery with all its attempts',
      params: DeliveryParams,
      ok: [200, 'Delivery', Delivery],
      errors,
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      return c.json(deliveryView(await getDelivery(ctx, id, deliveryId)), 200);
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/deliveries/{deliveryId}/redeliver', {
      summary: 'Redeliver a finished delivery as a new attempt series (same event id)',
      params: DeliveryParams,
      ok: [202, 'Queued', Delivery],
      errors: { 409: errorResponse('Still in progress'), ...errors },
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      const again = await redeliver(ctx, id, deliveryId);
      await auditInstallation(ctx, c.get('principal'), id, 'delivery.redeliver', {
        delivery: deliveryId,
        series: again.series,
      });
      return c.json(deliveryView(again), 202);
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/deliveries/redeliver', {
      summary: 'Redeliver every failed or exhausted delivery created in a time range',
      params: IdParam,
      body: RedeliverRangeBody,
      ok: [202, 'Queued', Redelivered],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const count = await redeliverRange(ctx, id, {
        ...given({ states: body.states }),
        since: body.since,
        until: body.until,
      });
      await auditInstallation(ctx, c.get('principal'), id, 'delivery.redeliver_range', {
        since: body.since ?? null,
        until: body.until ?? null,
        states: body.states ?? null,
        redelivered: count,
      });
      return c.json({ redelivered: count }, 202);
    },
  );

  app.openapi(
    route('POST /v1/installations/{id}/test', {
      summary:
        'Send a test delivery: a sample event marked `"test": true`, delivered and logged like any other',
      params: IdParam,
      optionalBody: TestEventBody,
      ok: [202, 'Queued', Delivery],
      errors,
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json') ?? {};
      const delivery = await sendTestEvent(ctx, id, body.eventType);
      await auditInstallation(ctx, c.get('principal'), id, 'delivery.test', {
        delivery: delivery.id,
        eventType: String((delivery.payload as { eventType?: string }).eventType ?? ''),
      });
      return c.json(deliveryView(delivery), 202);
    },
  );

  return app;
}
