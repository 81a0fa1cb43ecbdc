import { type PlatformEventType, sampleEvent, WEBHOOK_EVENT_TYPES_BY_PLACE } from '@platform/events';
import { generateSecret } from '@platform/webhooks';
import { enable } from '../delivery/health.js';
import type { DeliverJobPayload } from '../delivery/payload.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import {
  type DeliveryListOptions,
  type DeliveryPage,
  isStorageError,
  type JobWithAttempts,
  type RedeliverRangeOptions,
} from '../storage/index.js';
import type { HostContext } from './context.js';
import { type EndpointHealthView, endpointHealth } from './endpoint-health.js';
import { getInstallation } from './installations.js';
import { WEBHOOK_INTEGRATION } from './names.js';

/**
 * The webhook installations' own operations: their signing secret (read, rotate) and their delivery log
 * (list, one delivery, redeliver). Every function first checks that the installation exists (404) and is
 * of the webhook integration (400 `not_a_webhook`). The routes are in api/webhooks.ts.
 */

/** Rotation overlap: the previous secret stays valid (second `v1=` entry) this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * The installation, if it is a webhook installation; otherwise 404 (unknown) or 400 `not_a_webhook`.
 *
 * @example
 * const record = await requireWebhookInstallation(ctx, 'inst_1');
 */
export async function requireWebhookInstallation(ctx: HostContext, id: string) {
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

/**
 * The installation's signing secret, and the previous ones still valid (newest first).
 *
 * @example
 * const { secret, previous } = await webhookSecret(ctx, 'inst_1');
 */
export async function webhookSecret(
  ctx: HostContext,
  id: string,
  now = Date.now(),
): Promise<{ secret: string; previous: string[] }> {
  await requireWebhookInstallation(ctx, id);
  const [secret, ...previous] = await ctx.storage.webhookSecrets.active(id, now);
  if (!secret) throw notFound(`The webhook secret of "${id}"`);
  return { secret, previous };
}

/**
 * Rotates the signing secret; the previous one stays valid for {@link ROTATION_OVERLAP_MS}.
 *
 * @example
 * const { secret, previousExpiresAt } = await rotateWebhookSecret(ctx, 'inst_1');
 */
export async function rotateWebhookSecret(
  ctx: HostContext,
  id: string,
  now = Date.now(),
): Promise<{ secret: string; previousExpiresAt: number }> {
  await requireWebhookInstallation(ctx, id);
  const secret = generateSecret();
  await ctx.storage.webhookSecrets.rotate(id, secret, ROTATION_OVERLAP_MS, now);
  return { secret, previousExpiresAt: now + ROTATION_OVERLAP_MS };
}

/** Parses an ISO time or Unix milliseconds, or answers 400 naming the parameter. */
function parseTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms))
    throw badRequest(`${name} must be an ISO 8601 time or Unix milliseconds; got "${value}".`);
  return ms;
}

/** A time range as the API takes it: ISO 8601 times or Unix milliseconds, as text. */
export interface TimeRangeText {
  since?: string | undefined;
  until?: string | undefined;
}

/** `options` with its time range in milliseconds (400 naming a parameter that is no time). */
function withTimeRange<T extends TimeRangeText>(
  options: T,
): Omit<T, 'since' | 'until'> & { since?: number; until?: number } {
  const { since: sinceText, until: untilText, ...rest } = options;
  const since = parseTime('since', sinceText);
  const until = parseTime('until', untilText);
  return { ...rest, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
}

/**
 * Throws a storage `invalid` error (a bad cursor, say) again as a 400 with its message, any other as it is.
 *
 * @example
 * const page = await ctx.storage.jobs.listDeliveries(id, options).catch(invalidAsBadRequest);
 */
export function invalidAsBadRequest(error: unknown): never {
  if (isStorageError(error) && error.code === 'invalid') throw badRequest(error.message);
  throw error;
}

/** A page of the delivery log and the state of the installation's endpoint. */
export interface DeliveryLogPage extends DeliveryPage {
  endpoint: { slow: boolean; maxInFlight: number | null; filtered: number } & EndpointHealthView;
}

/**
 * The installation's deliveries, newest first (a bad cursor is a 400), and whether its endpoint is held
 * to its fair share now.
 *
 * @example
 * const { items, nextCursor, endpoint } = await listDeliveries(ctx, 'inst_1', { state: 'failed', since: '2026-01-01T00:00:00Z' });
 */
export async function listDeliveries(
  ctx: HostContext,
  id: string,
  options: Omit<DeliveryListOptions, 'since' | 'until'> & TimeRangeText,
): Promise<DeliveryLogPage> {
  await requireWebhookInstallation(ctx, id);
  const page = await ctx.storage.jobs.listDeliveries(id, withTimeRange(options)).catch(invalidAsBadRequest);
  const slow = ctx.delivery.isSlow(id);
  return {
    ...page,
    endpoint: {
      slow,
      maxInFlight: slow ? ctx.config.deliveryConcurrencyPerInstallation : null,
      filtered: ctx.metrics.filteredCount(id),
      ...(await endpointHealth(ctx, id)),
    },
  };
}

/**
 * One delivery of the installation with its attempts; 404 when it is not one of its deliveries.
 *
 * @example
 * const job = await getDelivery(ctx, 'inst_1', 'dlv_1');
 */
export async function getDelivery(
  ctx: HostContext,
  id: string,
  deliveryId: string,
): Promise<JobWithAttempts> {
  await requireWebhookInstallation(ctx, id);
  const job = await ctx.storage.jobs.getJob(deliveryId);
  if (!job || job.installationId !== id || job.kind !== 'deliver') throw notFound(`Delivery "${deliveryId}"`);
  return job;
}

/**
 * Queues a finished delivery again as a new attempt series (409 `delivery_in_progress` while it is still
 * queued or running) and wakes the delivery engine; returns the delivery as it is now.
 *
 * @example
 * const again = await redeliver(ctx, 'inst_1', 'dlv_1');
 */
export async function redeliver(ctx: HostContext, id: string, deliveryId: string): Promise<JobWithAttempts> {
  await getDelivery(ctx, id, deliveryId);
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
  return getDelivery(ctx, id, deliveryId);
}

/**
 * Queues again every finished delivery of the installation in `states` created in the range; returns
 * how many.
 *
 * @example
 * const count = await redeliverRange(ctx, 'inst_1', { since: '2026-01-01T00:00:00Z' });
 */
export async function redeliverRange(
  ctx: HostContext,
  id: string,
  options: Omit<RedeliverRangeOptions, 'since' | 'until'> & TimeRangeText,
): Promise<number> {
  await requireWebhookInstallation(ctx, id);
  const count = await ctx.storage.jobs.redeliverRange(id, withTimeRange(options), Date.now());
  if (count > 0) ctx.notify.deliveries();
  return count;
}

/**
 * Queues a test delivery to a webhook installation: the event catalogue's sample of `eventType` (default:
 * the first event the installation selected), in the installation's space or site, marked `"test": true`.
 * It is delivered, retried and logged like any other delivery. 400 for an event type the place does not have.
 *
 * @example
 * const delivery = await sendTestEvent(ctx, 'inst_1', 'page_feedback');
 */
export async function sendTestEvent(
  ctx: HostContext,
  id: string,
  eventType?: string,
): Promise<JobWithAttempts> {
  const record = await requireWebhookInstallation(ctx, id);
  const place = record.target === 'site' ? 'site' : 'space';
  const types: readonly string[] = WEBHOOK_EVENT_TYPES_BY_PLACE[place];
  const type = eventType ?? types.find((t) => record.configuration[t] === true) ?? types[0];
  if (type === undefined || !types.includes(type)) {
    throw badRequest(`eventType: a ${place} webhook receives ${types.join(', ')}; got "${eventType ?? ''}".`);
  }
  const event = {
    ...sampleEvent(type as PlatformEventType, {
      ...(record.spaceId ? { space: record.spaceId } : {}),
      ...(record.siteId ? { site: record.siteId } : {}),
    }),
    test: true,
    installationId: record.id,
  };
  const payload: DeliverJobPayload = { eventType: type, body: JSON.stringify(event) };
  const [job] = await ctx.storage.jobs.enqueue([
    { kind: 'deliver', installationId: record.id, eventId: event.eventId, payload: { ...payload } },
  ]);
  ctx.notify.deliveries();
  if (!job) throw new HttpError(500, 'internal', 'The test delivery was not queued.');
  return getDelivery(ctx, id, job.id);
}

/** What to do with the deliveries kept while the endpoint was disabled. */
export type KeptDeliveries = 'deliver' | 'cancel';

/**
 * Enables a disabled endpoint again (409 `endpoint_not_disabled` when it is not): its kept deliveries are
 * delivered (`deliver`, the default: queued again, due at once) or cancelled (`cancel`, still listed);
 * a new run of failures disables it again after the full `PLATFORM_ENDPOINT_DISABLE_AFTER`.
 *
 * @example
 * const { delivering } = await enableEndpoint(ctx, 'inst_1', 'deliver');
 */
export async function enableEndpoint(
  ctx: HostContext,
  id: string,
  kept: KeptDeliveries,
): Promise<{ endpoint: EndpointHealthView; delivering: number; cancelled: number }> {
  await requireWebhookInstallation(ctx, id);
  const now = Date.now();
  const counts = await ctx.storage.transaction(async (tx) => {
    const { enabled } = await tx.endpointHealth.change(id, now, (state) => {
      const next = enable(state, now);
      return { state: next ?? state, enabled: next !== null };
    });
    if (!enabled) return null;
    if (kept === 'cancel') return { delivering: 0, cancelled: await tx.endpointHealth.cancelKept(id, now) };
    return { delivering: await tx.jobs.unhold({ installationId: id }, now), cancelled: 0 };
  });
  if (!counts) {
    throw new HttpError(
      409,
      'endpoint_not_disabled',
      `The endpoint of installation "${id}" is not disabled; nothing to enable.`,
    );
  }
  ctx.notify.deliveries();
  return { endpoint: await endpointHealth(ctx, id), ...counts };
}
