import type { IncomingEvent } from '../api/schemas.js';
import type { IntegrationMeta } from '../storage/index.js';
import type { HostContext } from './context.js';
import { fanOutJobs, newEventId } from './dispatch.js';

/**
 * Accepts an upstream platform event: stores it and every job it fans out to in ONE transaction
 * (no window where an accepted event has no delivery), then wakes the workers.
 * Idempotent on a caller-given `eventId`: a repeat changes nothing and reports `duplicate`.
 *
 * @example
 * const { eventId } = await acceptEvent(ctx, { type: 'space_content_updated', spaceId: 's1', revisionId: 'r1' });
 */
export async function acceptEvent(
  ctx: HostContext,
  input: IncomingEvent,
): Promise<{ eventId: string; duplicate: boolean; jobs: number }> {
  // A caller's `installationId` (present in SPEC 2.10 payloads) means nothing here: each
  // delivery carries the id of the installation it goes to.
  const { installationId: _ignored, ...rest } = input;
  const event = { ...rest, eventId: input.eventId ?? newEventId() };
  const spaceId = 'spaceId' in event ? event.spaceId : undefined;
  const siteId = 'siteId' in event ? event.siteId : undefined;
  const result = await ctx.storage.transaction(async (tx) => {
    const { inserted } = await tx.events.insertIfAbsent({
      eventId: event.eventId,
      type: event.type,
      payload: event,
      spaceId: spaceId ?? null,
      siteId: siteId ?? null,
    });
    if (!inserted) return { duplicate: true, jobs: 0 };
    const installations = await tx.installations.matching({
      ...(spaceId === undefined ? {} : { spaceId }),
      ...(siteId === undefined ? {} : { siteId }),
    });
    const targets = [];
    // Routing needs the manifest only: the light read (no bundle, no secrets), once per integration.
    const cache = new Map<string, IntegrationMeta | null>();
    for (const installation of installations) {
      if (!cache.has(installation.integrationName)) {
        cache.set(
          installation.integrationName,
          await tx.integrations.getLatestMeta(installation.integrationName),
        );
      }
      const integration = cache.get(installation.integrationName);
      if (integration) targets.push({ installation, integration });
    }
    const jobs = fanOutJobs(event, targets);
    if (jobs.length > 0) await tx.jobs.enqueue(jobs);
    return { duplicate: false, jobs: jobs.length, kinds: new Set(jobs.map((j) => j.kind)) };
  });
  if (!result.duplicate && 'kinds' in result) {
    if (result.kinds?.has('deliver')) ctx.notify.deliveries();
    if (result.kinds?.has('invoke')) ctx.notify.invocations();
  }
  return { eventId: event.eventId, duplicate: result.duplicate, jobs: result.jobs };
}
