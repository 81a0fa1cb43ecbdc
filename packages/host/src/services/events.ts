import type { Span } from '@opentelemetry/api';
import type { IncomingEvent } from '@platform/events';
import type { HandOffTicket } from '../delivery/host/port.js';
import { GroupCommit } from '../jobs/group-commit.js';
import { leaseMs } from '../jobs/lease.js';
import {
  type EnqueueInput,
  type EventWithJobs,
  type InstallationRoute,
  isStorageError,
  type JobRecord,
  newLeaseToken,
  type Repositories,
  type RoutingRead,
} from '../storage/index.js';
import type { HostContext } from './context.js';
import { fanOutJobs, newEventId } from './dispatch.js';
import { startFanOutSpans } from './fan-out-trace.js';

/** What {@link acceptEvent} reports. */
export interface AcceptedEvent {
  eventId: string;
  duplicate: boolean;
  /** Jobs (deliveries and invocations) the event created; 0 for a duplicate. */
  jobs: number;
}

type StoredEvent = { type: string; eventId: string } & Record<string, unknown>;
/** One event submitted to the group commit, with its accept span (tracing on). */
type Submitted = { event: StoredEvent; span: Span | undefined };
type Outcome = { duplicate: boolean; jobs: number };
/** What a group's write stored, and the routing epoch it was checked at (null: stored unchecked). */
type Stored = {
  outcomes: Outcome[];
  jobs: JobRecord[];
  routedAt: number | null;
  /** Per event: the webhook installations whose payload filter kept it from them. */
  filtered: string[][];
};

/** One group-commit queue per host (keyed by its context). */
const acceptors = new WeakMap<HostContext, GroupCommit<Submitted, Outcome>>();

function acceptorOf(ctx: HostContext): GroupCommit<Submitted, Outcome> {
  let acceptor = acceptors.get(ctx);
  if (!acceptor) {
    const routing = new RoutingCache();
    const heldWake = throttled(() => ctx.notify.deliveries(), HELD_WAKE_MS);
    acceptor = new GroupCommit({
      // A locked or unreachable database would fail each event again: report it to all at once.
      isolate: (error) => !isStorageError(error, 'unavailable'),
      // At moderate rates, a few events per statement and sync instead of one each (docs/architecture.md).
      gatherMs: ctx.config.acceptGatherMs,
      run: async (submitted) => {
        const events = submitted.map((item) => item.event);
        // Tracing on: a fan-out span per event, under its accept span; its traceparent goes into the jobs.
        const fanOut = ctx.tracing ? startFanOutSpans(ctx.tracing, submitted) : undefined;
        const handing = handOver(ctx);
        let stored: Stored;
        try {
          stored = await storeEvents(ctx.storage, routing, events, handing.lease, fanOut?.traceparents);
        } catch (error) {
          handing.release();
          fanOut?.fail(error);
          throw error;
        }
        fanOut?.end(stored.outcomes, stored.jobs);
        stored.outcomes.forEach((outcome, i) => {
          if (!outcome.duplicate) for (const id of stored.filtered[i] ?? []) ctx.metrics.webhookFiltered(id);
        });
        // Committed: leased first attempts go straight to the delivery thread, the rest wait in the queue.
        const queued = handing.deliver(stored.jobs, stored.routedAt);
        if (queued.deliver) ctx.notify.deliveries();
        else if (queued.held) heldWake();
        if (queued.invoke) ctx.notify.invocations();
        return stored.outcomes;
      },
    });
    acceptors.set(ctx, acceptor);
  }
  return acceptor;
}

/**
 * Held deliveries (of an installation the delivery thread reports slow) wake it at most once per this
 * many ms: a slow installation with room takes them within this time even when none of its attempts is
 * in flight to pull them, and a dead one, at its limit, costs the thread at most one claim per window.
 */
const HELD_WAKE_MS = 50;

/** `fn` at once, or at the end of the `ms` window after its last call: at most once per window. */
function throttled(fn: () => void, ms: number): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  return () => {
    if (timer !== undefined) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) return run();
    timer = setTimeout(run, wait);
    timer.unref();
  };
}

/** Stale writes in a row after which a group is stored by routes read just before, unchecked. */
const MAX_STALE_WRITES = 3;

/**
 * Stores events and every job they fan out to, atomically (`events.insertWithJobs`: one statement on
 * PostgreSQL). The routes come from the host's {@link RoutingCache}, read (`installations.routes`, once
 * per scope) only when the cache has none; the write stores the group only if the routing epoch it was
 * routed at is still current, and otherwise the group is routed again from fresh reads. After
 * {@link MAX_STALE_WRITES} stale writes in a row (installations changing all the time) the group is stored
 * unchecked, by routes read just before, as a read outside the write would (docs/architecture.md,
 * "Accepting events").
 */
async function storeEvents(
  storage: Repositories,
  cache: RoutingCache,
  events: readonly StoredEvent[],
  lease: (jobs: EnqueueInput[]) => void,
  traceparents?: readonly string[],
): Promise<Stored> {
  for (let stale = 0; ; stale++) {
    const { entries, epoch, filtered } = await routeGroup(storage, cache, events, traceparents);
    lease(entries.flatMap((entry) => entry.jobs as EnqueueInput[]));
    const routedAt = stale < MAX_STALE_WRITES ? epoch : null;
    const result = await storage.events.insertWithJobs(entries, undefined, routedAt);
    if (result.stale) {
      cache.reset(result.epoch);
      continue;
    }
    const outcomes = entries.map(
      (entry, i): Outcome =>
        result.inserted[i] ? { duplicate: false, jobs: entry.jobs.length } : { duplicate: true, jobs: 0 },
    );
    return { outcomes, jobs: result.jobs, routedAt, filtered };
  }
}

/**
 * The group's events with their jobs, every one routed at one epoch, the cache's (it reads what the cache
 * lacks). A read at another epoch than the cache's makes the next pass read every scope afresh; when reads
 * keep seeing new epochs (installations changing all the time), the third pass returns routes all read
 * just now, at more than one epoch, and `epoch` null: to be stored unchecked.
 */
async function routeGroup(
  storage: Repositories,
  cache: RoutingCache,
  events: readonly StoredEvent[],
  traceparents?: readonly string[],
): Promise<{ entries: EventWithJobs[]; epoch: number | null; filtered: string[][] }> {
  for (let pass = 1; ; pass++) {
    const entries: EventWithJobs[] = [];
    const filtered: string[][] = [];
    const seen = new Set<string>();
    /** The scopes read in this pass (after the first, every scope is read afresh, once). */
    const readNow = new Map<string, InstallationRoute[]>();
    let consistent = true;
    for (const [index, event] of events.entries()) {
      const spaceId = typeof event.spaceId === 'string' ? event.spaceId : undefined;
      const siteId = typeof event.siteId === 'string' ? event.siteId : undefined;
      const stored = { eventId: event.eventId, type: event.type, payload: event, spaceId, siteId };
      // A repeated eventId is stored once, by its first event: the others need no routing.
      if (seen.has(event.eventId)) {
        entries.push({ event: stored, jobs: [] });
        filtered.push([]);
        continue;
      }
      seen.add(event.eventId);
      const scopeKey = `${spaceId ?? ''}\u0000${siteId ?? ''}`;
      let targets = pass === 1 ? cache.get(scopeKey) : readNow.get(scopeKey);
      if (!targets) {
        const read = await storage.installations.routes({
          ...(spaceId === undefined ? {} : { spaceId }),
          ...(siteId === undefined ? {} : { siteId }),
        });
        // Another epoch than the routes used so far: the group is routed again, from fresh reads.
        if (!cache.put(scopeKey, read)) consistent = false;
        targets = read.routes;
        readNow.set(scopeKey, targets);
      }
      const kept: string[] = [];
      entries.push({ event: stored, jobs: fanOutJobs(event, targets, traceparents?.[index], kept) });
      filtered.push(kept);
    }
    if (consistent) return { entries, epoch: cache.epoch, filtered };
    if (pass === 3) return { entries, epoch: null, filtered };
  }
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
    deliver(
      jobs: readonly JobRecord[],
      routedAt: number | null,
    ): { deliver: boolean; held: boolean; invoke: boolean } {
      ticket?.deliver(
        jobs.filter((job) => job.kind === 'deliver' && job.state === 'running'),
        routedAt ?? undefined,
      );
      ticket = null;
      // A slow installation's deliveries (held, or queued) need no immediate wake-up: the delivery thread
      // looks for them when one of its attempts ends; held ones wake it, throttled (HELD_WAKE_MS), for when
      // none is in flight.
      const slow = (job: JobRecord) => ctx.delivery.isSlow(job.installationId);
      return {
        deliver: jobs.some((job) => job.kind === 'deliver' && job.state === 'queued' && !slow(job)),
        held: jobs.some((job) => job.kind === 'deliver' && job.state === 'held'),
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
 * `span`: the request's accept span (tracing on), the parent of the event's fan-out span.
 *
 * @example
 * const { eventId } = await acceptEvent(ctx, sampleEvent(type)); // any IncomingEvent
 */
export function acceptEvent(ctx: HostContext, input: IncomingEvent, span?: Span): Promise<AcceptedEvent> {
  // A caller's `installationId` (present in webhook payloads, docs/events.md) means nothing here: each
  // delivery carries the id of the installation it goes to.
  const { installationId: _ignored, ...rest } = input;
  const event: StoredEvent = { ...rest, eventId: input.eventId ?? newEventId() };
  return acceptorOf(ctx)
    .submit({ event, span })
    .then((outcome) => {
      ctx.metrics.eventAccepted(event.type, outcome.duplicate);
      return { eventId: event.eventId, duplicate: outcome.duplicate, jobs: outcome.jobs };
    });
}

/** How many scopes' routes a host keeps (the oldest read is dropped first). */
const MAX_SCOPES = 4_096;

/**
 * The routes of the scopes a host has accepted events for, all valid at one routing epoch, so that a
 * group of accepted events costs no routing read while nothing changes. Never trusted blindly: the group's
 * write stores nothing unless the epoch is still current (`events.insertWithJobs`' `routedAt`), and a
 * stale write resets the cache (docs/architecture.md, "Accepting events").
 *
 * @example
 * const cache = new RoutingCache();
 * let routes = cache.get(key);
 * if (!routes) {
 *   const read = await storage.installations.routes(scope);
 *   if (!cache.put(key, read)) {
 *     // the epoch moved on: routes taken from the cache earlier are stale, route them again
 *   }
 *   routes = read.routes;
 * }
 */
export class RoutingCache {
  #epoch: number | null = null;
  readonly #byScope = new Map<string, InstallationRoute[]>();
  readonly #maxScopes: number;

  constructor(maxScopes = MAX_SCOPES) {
    this.#maxScopes = maxScopes;
  }

  /** The epoch every cached route is valid at (null: nothing read yet, or just reset). */
  get epoch(): number | null {
    return this.#epoch;
  }

  /** The cached routes of a scope, or undefined. */
  get(scopeKey: string): InstallationRoute[] | undefined {
    return this.#byScope.get(scopeKey);
  }

  /**
   * Keeps a read (a null-epoch read reaches nothing whatever changes, and is not kept). Returns false when
   * the read saw another epoch than the cached routes: they are dropped, and routes used from them before
   * must be read again.
   */
  put(scopeKey: string, read: RoutingRead): boolean {
    if (read.epoch === null) return true;
    const consistent = this.#epoch === null || this.#epoch === read.epoch;
    if (!consistent) this.#byScope.clear();
    this.#epoch = read.epoch;
    if (this.#byScope.size >= this.#maxScopes && !this.#byScope.has(scopeKey)) {
      const oldest = this.#byScope.keys().next();
      if (!oldest.done) this.#byScope.delete(oldest.value);
    }
    this.#byScope.set(scopeKey, read.routes);
    return consistent;
  }

  /** Forgets every route: the routing epoch is now `epoch`. */
  reset(epoch: number): void {
    this.#byScope.clear();
    this.#epoch = epoch;
  }
}
