import type { Dispatcher } from 'undici';
import type { HostConfig } from '../../config.js';
import { GroupCommit } from '../../jobs/group-commit.js';
import type { JobLoopSlots } from '../../jobs/job-loop.js';
import { leaseMs } from '../../jobs/lease.js';
import type { Decision } from '../../jobs/policy.js';
import type { DeliveryMetrics } from '../../metrics/index.js';
import type { AddressPolicy } from '../../net/index.js';
import {
  type FinishItem,
  HomeHelp,
  isStorageError,
  type JobRecord,
  type Storage,
  wakeOnSignals,
} from '../../storage/index.js';
import type { HostTracing } from '../../tracing/index.js';
import { DestinationClients } from '../destinations/index.js';
import { OAuthTokens, RateSchedule } from '../endpoint/index.js';
import {
  type AttemptEnd,
  createDeliveryEngine,
  type DeliveryEngine,
  type DeliveryJob,
  type RecordedAttempt,
} from '../engine.js';
import type { DeliverJobPayload } from '../payload.js';
import { attemptTracer } from './attempt-trace.js';
import { EndpointHealthWatch, type HealthEvent } from './endpoint-health.js';
import { operatorEventSink } from './operator-sink.js';
import { DeliveryTargets } from './targets.js';

/**
 * How long an attempt record that ends less than this after the one before it waits for others to be written
 * with it, in ms; a lone record is written at once (docs/benchmarks.md, "2-core machine, 2026-11-29" and
 * "Waits for company that learn"). A crash loses at most these records: their jobs' leases bring the
 * attempts back, as for a crash during any attempt.
 */
export const RECORD_GATHER_MS = 5;

/**
 * Sockets the delivery dispatcher may open to one origin: as many as attempts may be in flight — the
 * slots, plus as many attempts that lingered and gave theirs back (the fair share's default bound) — so no
 * attempt waits for a socket behind attempts to a silent endpoint.
 */
export function deliverySocketsPerOrigin(concurrency: number): number {
  return 2 * concurrency;
}

/**
 * Handed-over deliveries that may wait for a slot, per slot (docs/architecture.md, "The runway"): in a
 * burst, first attempts wait in the delivery thread's memory, already leased, instead of in the queue,
 * where each would cost a claim (docs/benchmarks.md, "The runway").
 */
export const RUNWAY_PER_SLOT = 4;

/**
 * How long a handed-over delivery may wait for a slot: half of what its lease gives beyond the attempt's
 * timeout, so one that starts still has the whole timeout and a margin before its lease runs out.
 *
 * @example
 * runwayWaitMs(15_000, 10_000); // 2_500
 */
export function runwayWaitMs(leaseMs: number, attemptTimeoutMs: number): number {
  return Math.max(1, Math.floor((leaseMs - attemptTimeoutMs) / 2));
}

/** Where the delivery engine reports its errors (a pino logger fits; so does the worker thread's relay). */
export interface DeliveryLog {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The warn line of an attempt that did not succeed: delivery, installation, attempt, outcome, what comes next. */
function logFailedAttempt(
  logger: DeliveryLog,
  job: QueuedDelivery,
  attempt: RecordedAttempt,
  end: AttemptEnd,
) {
  const outcome = attempt.error ? attempt.error.code : `HTTP ${attempt.statusCode}`;
  const nextAttemptAt = 'runAt' in end ? new Date(end.runAt).toISOString() : null;
  const next = nextAttemptAt
    ? `next attempt at ${nextAttemptAt}`
    : 'state' in end && end.state === 'exhausted'
      ? 'retries exhausted, not retried'
      : 'not retried';
  logger.warn(
    {
      delivery: job.id,
      installation: job.record.installationId,
      eventId: job.eventId,
      attempt: attempt.attempt,
      outcome,
      nextAttemptAt,
      ...('state' in end ? { state: end.state } : {}),
      ...job.log,
    },
    `webhook delivery ${job.id} of installation ${job.record.installationId}: attempt ${attempt.attempt} failed (${outcome}); ${next}`,
  );
}

/** The log line of an endpoint disabled or recovered. */
function logHealthEvent(logger: DeliveryLog, event: HealthEvent) {
  const at = new Date(event.at).toISOString();
  const message =
    event.type === 'endpoint.disabled'
      ? `webhook endpoint of installation ${event.installationId} disabled at ${at}: every delivery exhausted since ${new Date(event.failingSince).toISOString()}; its new deliveries are kept until it is enabled again`
      : `webhook endpoint of installation ${event.installationId} recovered at ${at}: a delivery succeeded after it was enabled again`;
  logger.warn({ installation: event.installationId, event: event.type }, message);
}

/** What the delivery engine needs: a subset of `HostContext`, so it can also run in a worker thread. */
export interface DeliveryDeps {
  readonly config: Pick<
    HostConfig,
    | 'deliveryTimeoutMs'
    | 'deliveryConcurrency'
    | 'deliveryConcurrencyPerInstallation'
    | 'queuePollMs'
    | 'endpointDisableAfterMs'
    | 'operatorEvents'
  >;
  readonly storage: Storage;
  readonly policy: AddressPolicy;
  readonly logger: DeliveryLog;
  /** Where each attempt is counted (`GET /metrics`). */
  readonly attemptMetrics?: DeliveryMetrics;
  /** This thread's tracing: a span per attempt, `traceparent` sent (undefined: off). */
  readonly tracing?: HostTracing | undefined;
}

interface QueuedDelivery extends DeliveryJob {
  record: JobRecord;
  /**
   * The routing epoch its claim read, or that the write handing it over was checked at (see
   * DeliveryTargets); undefined: handed over by a write stored unchecked.
   */
  routingEpoch?: number | undefined;
  installationId: string;
  /** The W3C trace context stored with the job at fan-out (tracing was on). */
  traceparent?: string | undefined;
  /** The current attempt span's ids, for its log lines (tracing on). */
  log?: { trace_id?: string; span_id?: string };
}

function toQueued(record: JobRecord, routingEpoch?: number): QueuedDelivery {
  const payload = record.payload as unknown as DeliverJobPayload;
  return {
    record,
    routingEpoch,
    installationId: record.installationId,
    traceparent: payload.traceparent,
    id: record.id,
    eventId: record.eventId ?? '',
    eventType: payload.eventType,
    body: payload.body,
    attempt: record.attempt + 1,
    // A retry's scheduled time (a first attempt's runAt is when it was accepted: already past).
    dueAt: record.runAt,
  };
}

/**
 * A delivery is claimed up to this many ms before it falls due, and its request leaves at its due time
 * (`DeliveryEngineOptions.claimAheadMs`): a claim slowed by a busy database or thread costs a retry none of
 * the 50-200 ms its window leaves for the trip to the receiver (docs/operations.md, "Retry punctuality").
 */
export const CLAIM_AHEAD_MS = 50;

/** How often held deliveries of installations no longer slow are queued again (see `unhold`). */
export const HELD_SWEEP_MS = 10_000;

/** Counts each attempt in `metrics`. */
function onAttemptOf(metrics: DeliveryMetrics) {
  return (_job: QueuedDelivery, attempt: RecordedAttempt, decision: Decision) =>
    metrics.recordAttempt(attempt, decision);
}

/** The delivery engine of {@link startDeliveryEngine}. */
export interface QueuedDeliveryEngine extends DeliveryEngine<QueuedDelivery> {
  /**
   * Delivers `deliver` jobs another thread inserted already leased (running, with their lease token);
   * `routingEpoch`: the epoch the accepting write was checked at, if it was (where they go is then read
   * again only if it changed since).
   */
  adoptRecords(records: readonly JobRecord[], routingEpoch?: number): void;
}

/**
 * The webhook delivery engine on the durable queue's `deliver` jobs (claim → sign → send → finishAttempt).
 *
 * @example
 * const engine = startDeliveryEngine({ config, storage, policy, logger }, dispatcher, '0.1.0');
 * engine.notify(); // after enqueueing deliveries
 * engine.adoptRecords(records); // jobs another thread inserted leased to this engine
 * // with slots and onSlowInstallation: the thread that hands jobs over learns which installations are slow
 * await engine.stop({ graceful: true });
 */
export function startDeliveryEngine(
  deps: DeliveryDeps,
  dispatcher: Dispatcher,
  version: string,
  slots?: JobLoopSlots,
  onSlowInstallation?: (installationId: string, slow: boolean) => void,
): QueuedDeliveryEngine {
  const { storage, config, logger } = deps;
  const { jobs } = storage;
  const lease = leaseMs(config.deliveryTimeoutMs);
  // Attempts are recorded in groups (one statement): a record that ends less than RECORD_GATHER_MS after the
  // one before waits that long for company, and what ends while a group is written goes in the next one; a
  // lone record (a moderate rate) is written at once, without a timer's wake-up of its own. The waits learn
  // as accepted events' do (jobs/company-waits.ts). A wait holds no slot (an attempt gives its slot back when
  // its exchange ends, engine.ts), so it costs neither throughput nor the next request's start; it delays
  // the attempt log and the next retry's announcement by as much.
  const finishing = new GroupCommit<FinishItem, boolean>({
    run: (items) => jobs.finishAttempts(items, Date.now()),
    isolate: (error) => !isStorageError(error, 'unavailable'),
    gatherMs: RECORD_GATHER_MS,
  });
  // Where deliveries go, read once per installation while current: at the routing epoch the job's claim
  // read, or the epoch of the write that handed it over, or later; an edited URL, a rotated secret or an
  // uninstall applies from the next claim or the next write on.
  const tokens = new OAuthTokens({ dispatcher, policy: deps.policy, timeoutMs: config.deliveryTimeoutMs });
  // Destinations other than HTTP (a `destination` in the installation's configuration): one open client
  // per installation, through the address policy; closed when the engine stops.
  const clients = new DestinationClients({ policy: deps.policy, dispatcher, userAgentVersion: version });
  const targets = new DeliveryTargets(
    (id) => storage.webhookSecrets.deliveryTarget(id, Date.now()),
    Date.now,
    tokens,
    clients,
  );
  // Rate-limited endpoints (`rate_limit`): a claimed or handed-over delivery leaves at its endpoint's turn;
  // one whose turn is further off than the claim-ahead goes back to the queue, due at its turn (no attempt
  // spent, no slot held meanwhile). Endpoints without a limit: untouched.
  const schedule = new RateSchedule();
  const admitted = async (installationId: string, rate: number): Promise<void> => {
    for (let wait = schedule.admit(installationId, rate, Date.now()); wait > 0; ) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = schedule.admit(installationId, rate, Date.now());
    }
  };
  const pace = async (claimed: QueuedDelivery[]): Promise<QueuedDelivery[]> => {
    if (claimed.length === 0) return claimed;
    const byInstallation = new Map<string, QueuedDelivery[]>();
    for (const job of claimed) {
      const list = byInstallation.get(job.installationId);
      if (list) list.push(job);
      else byInstallation.set(job.installationId, [job]);
    }
    const kept: QueuedDelivery[] = [];
    const deferred: Array<{ id: string; leaseToken: string | null; runAt: number }> = [];
    const now = Date.now();
    // Where each installation's deliveries go (the same cached reads the attempts use), all at once.
    const rates = await Promise.all(
      [...byInstallation].map(([installationId, list]) =>
        targets.resolve({ installationId, routingEpoch: list[0]?.routingEpoch }).then(
          (target) => target?.rateLimit,
          () => undefined,
        ),
      ),
    );
    for (const [index, [installationId, list]] of [...byInstallation].entries()) {
      const rate = rates[index];
      if (rate === undefined) {
        kept.push(...list);
        continue;
      }
      const turns = schedule.plan(
        installationId,
        rate,
        list.map((job) => job.id),
        now,
        CLAIM_AHEAD_MS,
      );
      list.forEach((job, i) => {
        const turn = turns[i]!;
        if ('send' in turn) kept.push({ ...job, dueAt: Math.max(job.dueAt ?? 0, turn.send) });
        else deferred.push({ id: job.id, leaseToken: job.record.leaseToken, runAt: turn.defer });
      });
    }
    if (deferred.length > 0) {
      await jobs.defer(deferred, now);
      engine.notifyDue(Math.min(...deferred.map((job) => job.runAt)));
    }
    return kept;
  };
  // Endpoint health (docs/contracts.md "Endpoint health"): a disabled endpoint's deliveries are kept held,
  // none of them is claimed, until it is enabled again.
  // Operator events (docs/contracts.md "Operator events"): deliveries of their own, to the operator's URL.
  const operator = operatorEventSink({
    storage,
    settings: config.operatorEvents,
    targetOf: (installationId) => targets.resolve({ installationId }),
    notify: () => engine.notify(),
    onError: (error) => logger.error({ err: error }, 'could not queue an operator event'),
  });
  const health = new EndpointHealthWatch(storage, config.endpointDisableAfterMs, {
    onEvent: (event) => {
      logHealthEvent(logger, event);
      operator.health(event);
    },
    onEnabled: () => engine.notify(),
    onError: (error, what) => logger.error({ err: error }, what),
  });
  /** The fair share's allowances, with none for a disabled endpoint. */
  const withDisabled = (allowances: ReadonlyMap<string, number> | undefined) => {
    const disabled = health.disabled();
    if (disabled.length === 0) return allowances;
    const merged = new Map(allowances ?? []);
    for (const id of disabled) merged.set(id, 0);
    return merged;
  };
  const unhold = (which: { installationId: string } | { except: readonly string[] }) => {
    if ('installationId' in which && health.isDisabled(which.installationId)) return;
    if ('except' in which) which = { except: [...which.except, ...health.disabled()] };
    jobs.unhold(which, Date.now()).then(
      (count) => {
        if (count > 0) engine.notify();
      },
      (error: unknown) => logger.error({ err: error }, 'could not queue held deliveries again'),
    );
  };
  // Room to spare: at least half the slots free (a busy host's next claims take such work past the grace).
  const help = new HomeHelp(
    () => engine.jobLoop.inFlight <= config.deliveryConcurrency / 2,
    () => engine.notify(),
    () => jobs.askForHelp('deliver'),
    (error) => logger.error({ err: error }, 'could not ask the other hosts for help'),
  );
  const engine = createDeliveryEngine<QueuedDelivery>({
    queue: {
      claim: async (limit, dueBy, shares) => {
        const allowances = withDisabled(shares);
        const now = Date.now();
        const claimed = await jobs.claim({
          kinds: ['deliver'],
          limit,
          leaseMs: lease,
          now,
          dueBy: Math.max(now, dueBy),
          help: help.active,
          ...(allowances && allowances.size > 0 ? { perInstallation: allowances } : {}),
        });
        // Each job carries the routing epoch its claim read: where it goes is read again only if it changed
        // since (an edit, a rotation or an uninstall committed before the claim moved the epoch on).
        const queued = claimed.map((record) => toQueued(record, claimed.routingEpoch ?? undefined));
        let heldLeft = false;
        // A slow installation's new deliveries are held (see events.ts): what its share has room for
        // comes from there, through its own index range.
        for (const [installationId, allowance] of allowances ?? []) {
          const room = Math.min(
            allowance - claimed.filter((job) => job.installationId === installationId).length,
            limit - queued.length,
          );
          if (room <= 0) continue;
          const held = await jobs.claimHeld({ installationId, limit: room, leaseMs: lease, now });
          queued.push(...held.map((record) => toQueued(record, held.routingEpoch ?? undefined)));
          if (held.length === room) heldLeft = true;
        }
        deps.attemptMetrics?.queueClaim(queued.length);
        help.claimed(claimed.length, limit, claimed.moreDue);
        const paced = await pace(queued);
        // Where the claim counted what was due (PostgreSQL), the job loop need not guess from a full claim.
        return claimed.moreDue === null ? paced : { jobs: paced, moreDue: claimed.moreDue || heldLeft };
      },
      release: async (released) => {
        await jobs.release(
          released.map((job) => job.record),
          Date.now(),
        );
      },
      finish: async (job, attempt, end) => {
        const succeeded = 'state' in end && end.state === 'succeeded';
        if (!succeeded) logFailedAttempt(logger, job, attempt, end);
        // One transaction (shared with the attempts ending meanwhile): the attempt, and the job's end
        // (final state, or back in the queue).
        await finishing.submit({
          job: job.record,
          attempt: {
            series: job.record.series,
            number: attempt.attempt,
            startedAt: attempt.startedAt,
            durationMs: attempt.durationMs,
            statusCode: attempt.statusCode ?? null,
            error: attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : null,
            responseExcerpt: attempt.responseExcerpt ?? null,
          },
          outcome: 'state' in end ? { state: end.state } : { runAt: end.runAt, lastError: null },
        });
        // After the attempt is stored: a failure here must not send the attempt again.
        const { installationId } = job.record;
        // An operator event's own delivery is no endpoint's: no health, no operator event about it.
        if (operator.isOwn(installationId)) return;
        const exhausted = 'state' in end && end.state === 'exhausted';
        if (exhausted) operator.exhausted(job, attempt);
        // A healthy endpoint's success costs a Set lookup, no await (the hot path).
        if (exhausted || (succeeded && health.isTracked(installationId))) {
          await (succeeded ? health.succeeded : health.exhausted)
            .call(health, installationId, Date.now())
            .catch((error: unknown) =>
              logger.error(
                { err: error, installation: installationId },
                'could not record the health of a webhook endpoint',
              ),
            );
        }
      },
      nextDueAt: (exclude) => {
        deps.attemptMetrics?.queueNextDueRead();
        const disabled = health.disabled();
        return jobs.nextDueAt(['deliver'], disabled.length === 0 ? exclude : [...exclude, ...disabled]);
      },
    },
    resolveTarget: async (job) => {
      if (operator.isOwn(job.record.installationId)) return operator.target();
      const target = await targets.resolve({
        installationId: job.record.installationId,
        routingEpoch: job.routingEpoch,
      });
      const rate = target?.rateLimit;
      if (!target || rate === undefined) return target;
      // What was planned may leave late and together (a busy process): the limit holds on what leaves.
      return { ...target, beforeSend: () => admitted(job.installationId, rate) };
    },
    dispatcher,
    policy: deps.policy,
    userAgentVersion: version,
    timeoutMs: config.deliveryTimeoutMs,
    concurrency: config.deliveryConcurrency,
    claimAheadMs: CLAIM_AHEAD_MS,
    idleCheckMs: config.queuePollMs,
    perTarget: {
      targetOf: (job) => job.record.installationId,
      limit: config.deliveryConcurrencyPerInstallation,
      onSlow: (installationId, isSlow) => {
        if (!isSlow) unhold({ installationId });
        onSlowInstallation?.(installationId, isSlow);
      },
    },
    onError: (error, phase, job) =>
      logger.error({ err: error, phase, delivery: job?.id }, 'delivery engine error'),
    ...(deps.attemptMetrics ? { onAttempt: onAttemptOf(deps.attemptMetrics) } : {}),
    ...(deps.tracing ? { traceAttempt: attemptTracer(deps.tracing) } : {}),
    onLateRetry: (job, late) => {
      deps.attemptMetrics?.retryLate(late.cause, late.lateMs);
      logger.warn(
        {
          delivery: job.id,
          installation: job.record.installationId,
          attempt: job.attempt,
          lateMs: late.lateMs,
          cause: late.cause,
          parts: late.parts,
          ...job.log,
        },
        `retry ${job.attempt - 1} of delivery ${job.id} left ${late.lateMs} ms after it fell due (${late.cause})`,
      );
    },
    ...(slots
      ? {
          slots,
          runway: {
            jobs: RUNWAY_PER_SLOT * config.deliveryConcurrency,
            waitMs: runwayWaitMs(lease, config.deliveryTimeoutMs),
          },
        }
      : {}),
  });
  health.start();
  engine.start();
  // Signals of other hosts on the same database (PostgreSQL): their retries arm the timer for their due
  // time; their work due now is theirs first, claimed here at once only when they ask for help and this
  // host has room to spare (storage/queue-signals.ts, HOME_GRACE_MS and HomeHelp).
  const heard = {
    notify: () => engine.notify(),
    notifyDue: (dueAt: number) => {
      deps.attemptMetrics?.queueSignal();
      engine.notifyDue(dueAt);
    },
    help: () => {
      deps.attemptMetrics?.queueSignal();
      help.asked();
    },
  };
  const listener = wakeOnSignals(storage.listenQueue, 'deliver', heard, (error) =>
    logger.error({ err: error }, 'queue signals: the listening connection failed; reconnecting'),
  );
  // Held deliveries of installations this engine does not hold for slow (after a restart, a recovery seen
  // by another thread, or another host's holds) are queued again: at start, and every HELD_SWEEP_MS.
  unhold({ except: [] });
  // The installations held for slow are the fair share's (engine.jobLoop.slowKeys()): their held deliveries stay held.
  const sweep = setInterval(() => unhold({ except: engine.jobLoop.slowKeys() }), HELD_SWEEP_MS);
  sweep.unref();
  return {
    ...engine,
    stop: async (options) => {
      clearInterval(sweep);
      health.stop();
      await listener.close();
      await engine.stop(options);
      await clients.close();
    },
    adoptRecords(handed, routingEpoch) {
      // Not checked against an epoch (stored unchecked): where they go is read afresh.
      if (routingEpoch === undefined) targets.forget();
      // Never a rate-limited endpoint's: fan-out queues those for the claim, which paces them.
      // A disabled endpoint's new deliveries go back to the queue, where they are kept (held).
      const kept = handed.filter((record) => health.isDisabled(record.installationId));
      const records = kept.length === 0 ? handed : handed.filter((record) => !kept.includes(record));
      if (kept.length > 0) {
        slots?.give(kept.length);
        jobs.release(kept, Date.now()).then(
          () => health.refresh(),
          (error: unknown) =>
            logger.error({ err: error }, 'could not keep the deliveries of a disabled endpoint'),
        );
      }
      engine.adopt(records.map((record) => toQueued(record, routingEpoch)));
    },
  };
}
