import { notFound } from '../errors.js';
import { type DeliverySeries, deliverySeries, type StatsRange } from '../stats/series.js';
import type { HostContext } from './context.js';

/**
 * The delivery series of a range, host-wide or of one installation (404 when it does not exist). Who may
 * ask for which was decided before (access/rules.ts).
 *
 * @example
 * const series = await deliveryStats(ctx, { range: 'day', installationId: 'inst_1' });
 * series.buckets.length; // 288
 */
export async function deliveryStats(
  ctx: HostContext,
  query: { range: StatsRange; installationId: string | null },
): Promise<DeliverySeries> {
  if (query.installationId !== null && !(await ctx.storage.installations.get(query.installationId))) {
    throw notFound(`Installation "${query.installationId}"`);
  }
  return deliverySeries(ctx.storage, query);
}
