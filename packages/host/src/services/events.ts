import type { IncomingEvent } from '@platform/events';
import type { HandOffTicket } from '../delivery/host/hand-off.js';
import { leaseMs } from '../delivery/host/queue-engine.js';
import {
  type EnqueueInput,
  type InstallationRecord,
  type IntegrationMeta,
  isStorageError,
  type JobRecord,
  newLeaseToken,
  type StorageTx,
} from '../storage/index.js';
import type { HostContext } from './context.js';
import { fanOutJobs, newEventId } from './dispatch.js';
import { GroupCommit } from './group-commit.js';

/** What {@link acceptEvent} reports. */
export interface AcceptedEvent {
  eventId: string;
  duplicate: boolean;
  /** Jobs (deliveries and invocations) the event created; 0 for a duplicate. */
  jobs: number;
}

type StoredEvent = { type: string; eventId: string } & Record<string, unknown>;
type Outcome = { duplicate: boolean; jobs: number };
type Stored = { outcomes: Outcome[]; jobs: JobRecord[] };

/** One group-commit queue per host (keyed by its context). */
const acceptors = new WeakMap<HostContext, GroupCommit<StoredEvent, Outcome>>();

function acceptorOf(ctx: HostContext): GroupCommit<StoredEvent, Outcome> {
  let acceptor = acceptors.get(ctx);
  if (!acceptor) {
    acceptor = new GroupCommit({
      // A locked or unreachable database would fail each event again: report it to all at once.
      isolate: (error) => !isStorageError(error, 'unavailable'),
      run: async (events) => {
        const handing = handOver(ctx);
        let stored: Stored;
        try {
          stored = await ctx.storage.transaction((tx) => storeEvents(tx, events, handing.lease));
        } catch (error) {
          handing.release();
          throw error;
        }
        // Committed: leased first attempts go straight to the delivery thread, the rest wait in the queue.
        const queued = handing.deliver(stored.jobs);
        if (queued.deliver) ctx.notify.deliveries();
        if (queued.invoke) ctx.notify.invocations();
        return stored.outcomes;
      },
    });
    acceptors.set(ctx, acceptor);
  }
  return acceptor;
}

/**
 * Stores events and every job they fan out to, inside the caller's transaction. Routing reads
 * (matching installations, integration manifests) are shared by the events of the group: nothing
 * they read changes inside the transaction.
 */
async function storeEvents(
  tx: StorageTx,
  events: readonly StoredEvent[],
  lease: (jobs: EnqueueInput[]) => void,
): Promise<Stored> {
  const matches = new Map<string, InstallationRecord[]>();
  // Routing needs the manifest only: the light read (no bundle, no secrets), once per integration.
  const metas = new Map<string, IntegrationMeta | null>();
  const allJobs = [];
  const outcomes: Outcome[] = [];
  const place = (event: StoredEvent) => ({
    spaceId: typeof event.spaceId === 'string' ? event.spaceId : undefined,
    siteId: typeof event.siteId === 'string' ? event.siteId : undefined,
  });
  // One multi-row INSERT for the group (a repeated eventId is stored once, by its first event).
  const inserted = await tx.events.insertManyIfAbsent(
    events.map((event) => ({
      eventId: event.eventId,
      type: event.type,
      payload: event,
      spaceId: place(event).spaceId ?? null,
      siteId: place(event).siteId ?? null,
    })),
  );
  for (const [index, event] of events.entries()) {
    const { spaceId, siteId } = place(event);
    if (!inserted[index]) {
      outcomes.push({ duplicate: true, jobs: 0 });
      continue;
    }
    const scopeKey = `${spaceId ?? ''}\u0000${siteId ?? ''}`;
    let installations = matches.get(scopeKey);
    if (!installations) {
      installations = await tx.installations.matching({
        ...(spaceId === undefined ? {} : { spaceId }),
        ...(siteId === undefined ? {} : { siteId }),
      });
      matches.set(scopeKey, installations);
    }
    const targets = [];
    for (const installation of installations) {
      if (!metas.has(installation.integrationName)) {
        metas.set(
          installation.integrationName,
          await tx.integrations.getLatestMeta(installation.integrationName),
        );
      }
      const integration = metas.get(installation.integrationName);
      if (integration) targets.push({ installation, integration });
    }
    const jobs = fanOutJobs(event, targets);
    allJobs.push(...jobs);
    outcomes.push({ duplicate: false, jobs: jobs.length });
  }
  if (allJobs.length === 0) return { outcomes, jobs: [] };
  lease(allJobs);
  return { outcomes, jobs: await tx.jobs.enqueue(allJobs) };
}

/**
 * The hand-over of one group's first attempts to the delivery thread ({@link HostContext.delivery}'s `handOff`):
 * `lease` (inside the transaction, may run again if it does) reserves free slots of the engine and marks
 * as many new deliveries leased; after the commit `deliver` sends them and says what else is queued;
 * `release` gives the slots back when the transaction failed.
 */
function handOver(ctx: HostContext) {
  let ticket: HandOffTicket | null = null;
  return {
    lease(jobs: EnqueueInput[]): void {
      ticket?.release();
      ticket = null;
      const firstAttempts = jobs.filter((job) => job.kind === 'deliver' && job.runAt === undefined);
      // A slow endpoint's new deliveries are held: its backlog then costs other installations' claims
      // nothing (the delivery engine takes them per installation as its share has room).
      for (const job of firstAttempts) {
        if (ctx.delivery.isSlow(job.installationId)) job.hold = true;
      }
      if (firstAttempts.length === 0) return;
      ticket = ctx.delivery.handOff.reserve(firstAttempts.map((job) => job.installationId));
      if (!ticket) return;
      const lease = { until: Date.now() + leaseMs(ctx.config.deliveryTimeoutMs), token: newLeaseToken() };
      for (const i of ticket.admitted) (firstAttempts[i] as EnqueueInput).lease = lease;
    },
    deliver(jobs: readonly JobRecord[]): { deliver: boolean; invoke: boolean } {
      ticket?.deliver(jobs.filter((job) => job.kind === 'deliver' && job.state === 'running'));
      ticket = null;
      // A slow installation's deliveries (held, or queued) need no wake-up: the delivery thread looks for
      // them when one of its attempts ends (and at its next timer).
      const slow = (job: JobRecord) => ctx.delivery.isSlow(job.installationId);
      return {
        deliver: jobs.some((job) => job.kind === 'deliver' && job.state === 'queued' && !slow(job)),
        invoke: jobs.some((job) => job.kind === 'invoke'),
      };
    },
    release(): void {
      ticket?.release();
      ticket = null;
    },
  };
}

/**
 * Accepts an upstream platform event: stores it and every job it fans out to in ONE transaction
 * (no window where an accepted event has no delivery), then wakes the workers. Resolves once that
 * transaction has committed. Concurrent calls share a transaction (group commit, see
 * {@link GroupCommit}); a failure of one event fails only its own call.
 * Idempotent on a caller-given `eventId`: a repeat changes nothing and reports `duplicate`.
 *
 * @example
 * const { eventId } = await acceptEvent(ctx, sampleEvent(type)); // any IncomingEvent
 */
export function acceptEvent(ctx: HostContext, input: IncomingEvent): Promise<AcceptedEvent> {
  // A caller's `installationId` (present in webhook payloads, docs/events.md) means nothing here: each
  // delivery carries the id of the installation it goes to.
  const { installationId: _ignored, ...rest } = input;
  const event: StoredEvent = { ...rest, eventId: input.eventId ?? newEventId() };
  return acceptorOf(ctx)
    .submit(event)
    .then((outcome) => {
      ctx.metrics.eventAccepted(event.type, outcome.duplicate);
      return { eventId: event.eventId, duplicate: outcome.duplicate, jobs: outcome.jobs };
    });
}
