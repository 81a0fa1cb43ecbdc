import type { IncomingEvent } from '@platform/events';
import type { HandOffTicket } from '../delivery/host/hand-off.js';
import { leaseMs } from '../delivery/host/queue-engine.js';
import {
  type EnqueueInput,
  type EventWithJobs,
  type InstallationRoute,
  isStorageError,
  type JobRecord,
  newLeaseToken,
  type Repositories,
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
          stored = await storeEvents(ctx.storage, events, handing.lease);
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
 * Stores events and every job they fan out to, atomically (`events.insertWithJobs`: one statement on
 * PostgreSQL). The routing read (`installations.routes`: the installations an event reaches with their
 * integrations' manifests, one statement) comes first, outside the write, once per scope in the group:
 * under read-committed isolation a read inside the write's transaction would see nothing newer
 * (docs/architecture.md, "Accepting events").
 */
async function storeEvents(
  storage: Repositories,
  events: readonly StoredEvent[],
  lease: (jobs: EnqueueInput[]) => void,
): Promise<Stored> {
  /** The installations an event reaches and their integrations, read once per scope of the group. */
  const routes = new Map<string, InstallationRoute[]>();
  const seen = new Set<string>();
  const entries: EventWithJobs[] = [];
  for (const event of events) {
    const spaceId = typeof event.spaceId === 'string' ? event.spaceId : undefined;
    const siteId = typeof event.siteId === 'string' ? event.siteId : undefined;
    const stored = { eventId: event.eventId, type: event.type, payload: event, spaceId, siteId };
    // A repeated eventId is stored once, by its first event: the others need no routing.
    if (seen.has(event.eventId)) {
      entries.push({ event: stored, jobs: [] });
      continue;
    }
    seen.add(event.eventId);
    const scopeKey = `${spaceId ?? ''}\u0000${siteId ?? ''}`;
    let targets = routes.get(scopeKey);
    if (!targets) {
      targets = await storage.installations.routes({
        ...(spaceId === undefined ? {} : { spaceId }),
        ...(siteId === undefined ? {} : { siteId }),
      });
      routes.set(scopeKey, targets);
    }
    entries.push({ event: stored, jobs: fanOutJobs(event, targets) });
  }
  lease(entries.flatMap((entry) => entry.jobs as EnqueueInput[]));
  const { inserted, jobs } = await storage.events.insertWithJobs(entries);
  const outcomes = entries.map(
    (entry, i): Outcome =>
      inserted[i] ? { duplicate: false, jobs: entry.jobs.length } : { duplicate: true, jobs: 0 },
  );
  return { outcomes, jobs };
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
