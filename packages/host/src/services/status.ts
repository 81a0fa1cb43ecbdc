import type { QueueStats } from '../storage/index.js';
import type { HostContext } from './context.js';

/** One queue's state in the host status: waiting (held included), due, held, running, lag. */
export interface QueueState {
  queued: number;
  due: number;
  held: number;
  running: number;
  oldestDueAgeSeconds: number;
}

/** A webhook endpoint held to its fair share now. */
export interface SlowEndpoint {
  installationId: string;
  integration: string;
  target: string;
  targetId: string | null;
  origin: string | null;
}

/** The host at a glance (`GET /v1/status`). */
export interface HostStatusView {
  version: string;
  startedAt: string;
  deliveries: QueueState;
  invocations: QueueState;
  slowEndpoints: SlowEndpoint[];
}

function queueState(stats: readonly QueueStats[], kind: QueueStats['kind'], now: number): QueueState {
  const s = stats.find((x) => x.kind === kind);
  return {
    queued: (s?.queued ?? 0) + (s?.held ?? 0),
    due: s?.due ?? 0,
    held: s?.held ?? 0,
    running: s?.running ?? 0,
    oldestDueAgeSeconds: s?.oldestDueAt == null ? 0 : Math.max(0, (now - s.oldestDueAt) / 1000),
  };
}

function originOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The queues (deliveries and invocations: queued, due, held, running, lag) and the webhook endpoints held
 * to their fair share now.
 *
 * @example
 * const status = await hostStatus(ctx, { version: '1.0.0', startedAt: new Date() });
 * status.deliveries.due; // 0
 */
export async function hostStatus(
  ctx: HostContext,
  info: { version: string; startedAt: Date },
  now = Date.now(),
): Promise<HostStatusView> {
  const stats = await ctx.storage.jobs.queueStats(now);
  const slowEndpoints: SlowEndpoint[] = [];
  for (const id of ctx.delivery.slowInstallations()) {
    const installation = await ctx.storage.installations.get(id);
    if (!installation) continue;
    slowEndpoints.push({
      installationId: id,
      integration: installation.integrationName,
      target: installation.target,
      targetId: installation.spaceId ?? installation.siteId ?? installation.organizationId,
      origin: originOf(installation.configuration.url),
    });
  }
  return {
    version: info.version,
    startedAt: info.startedAt.toISOString(),
    deliveries: queueState(stats, 'deliver', now),
    invocations: queueState(stats, 'invoke', now),
    slowEndpoints,
  };
}
