import type { Dispatcher } from 'undici';
import {
  type ClaimAnswer,
  createJobLoop,
  type HandleTiming,
  type JobLoop,
  type JobLoopClock,
  type JobLoopErrorPhase,
  type JobLoopSlots,
  systemClock,
} from '../jobs/job-loop.js';
import type { Decision, FinalState } from '../jobs/policy.js';
import type { AddressPolicy } from '../net/policy.js';
import { openHttpClient } from './destinations/http/index.js';
import type { DestinationClient, RenewableAuthorization } from './destinations/types.js';
import { describe } from './errors.js';
import { diagnoseRetry, type LateRetry } from './lateness.js';
import { type AttemptOutcome, classify } from './policy.js';
import {
  decideWithSchedule,
  parseRetryAfter,
  type RetrySchedule,
  SPEC_SCHEDULE,
  scheduleArrivalSlackMs,
} from './schedule.js';
import {
  type AttemptResult,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  deliveryHeaders,
  type SendWebhookInput,
} from './sender.js';
import type { DeliverySigning } from './signing.js';

/** One delivery (one attempt series) as the engine needs it. Storage may carry more fields. */
export interface DeliveryJob {
  /** Delivery id: stable across the retries of the series (`X-Platform-Delivery-Id`). */
  id: string;
  eventId: string;
  eventType: string;
  /** The event JSON, sent byte-identical on every attempt. */
  body: string;
  /** 1-based number of the attempt about to be made in this series. */
  attempt: number;
  /** When this attempt falls due (ms, the clock's scale): a retry's scheduled time. It is not sent before. */
  dueAt?: number;
}

/** Where to send a job. */
export interface DeliveryTarget {
  url: string;
  /** Active signing secrets (two during a rotation overlap). */
  secrets: readonly string[];
  /** The installation's signature scheme (signing.ts); absent: `platform`. */
  signing?: DeliverySigning;
  /** The endpoint's custom headers and static `Authorization` (opt-in, docs/contracts.md "Endpoint settings"). */
  headers?: Readonly<Record<string, string>>;
  /** An `Authorization` fetched from elsewhere (an OAuth2 token), renewed once when the receiver answers 401. */
  authorization?: TargetAuthorization;
  /** Deliveries per second at most (the endpoint's `rate_limit`; the host's queue adapter paces them). */
  rateLimit?: number;
  /** The installation's retry schedule (`retry_schedule`); absent: the spec's (`SPEC_SCHEDULE`). */
  schedule?: RetrySchedule;
  /** Resolves when the request may leave now (a rate limit's last check); called once per request. */
  beforeSend?: () => Promise<void>;
  /**
   * A destination other than HTTP (a message broker: docs/architecture.md "Destinations"): its open client,
   * or why the declared one cannot be used (the attempt fails `invalid_target`). Absent: HTTP to `url`.
   */
  destination?: { kind: string; client: DestinationClient } | { kind: string; problem: string };
}

/** A renewable `Authorization` header value (an OAuth2 client-credentials token). */
export type TargetAuthorization = RenewableAuthorization;

/** An attempt as recorded: the sender's result and the attempt number. */
export interface RecordedAttempt extends AttemptResult {
  attempt: number;
}

/**
 * The trace of one attempt (docs/operations.md "Tracing"): its `traceparent` goes out with the request, and
 * `end` is called once, after the attempt was recorded (`decision`), or with the error that stopped it.
 */
export interface AttemptTrace {
  readonly traceparent: string;
  end(attempt: RecordedAttempt | undefined, decision: Decision | undefined, error?: unknown): void;
}

/** How an attempt ends its claim: a final state, or a retry due at `runAt` (ms, `clock.now()` scale). */
export type AttemptEnd = { state: FinalState } | { runAt: number };

/**
 * The durable queue, adapted from storage. Every call concerns a job this process claimed.
 * After each attempt the engine calls `finish` once: record the attempt AND end the claim (final
 * state, or back in the queue for attempt `job.attempt + 1`) — one transaction in storage.
 */
export interface DeliveryQueue<J extends DeliveryJob = DeliveryJob> {
  /**
   * Leases at most `limit` jobs due by `dueBy` (now, or `claimAheadMs` later); with `perTarget`, at most
   * `allowances.get(target)` of each target listed (the slow ones; 0: none), the others uncapped. Answers
   * the jobs, or the jobs and whether due jobs were left behind (`ClaimAnswer`: spares a claim that would
   * come back empty).
   */
  claim(limit: number, dueBy: number, allowances?: ReadonlyMap<string, number>): Promise<ClaimAnswer<J>>;
  /** Stores the attempt (time, duration, status or error, excerpt) and completes or reschedules the job. */
  finish(job: J, attempt: RecordedAttempt, end: AttemptEnd): Promise<void>;
  /** Due time of the next unclaimed job of a target not `exclude`d, or null. */
  nextDueAt(exclude: readonly string[]): Promise<number | null>;
  /** Gives leased jobs back untouched (needed with `perTarget`: jobs beyond a target's share). */
  release?(jobs: J[]): Promise<void>;
}

/** Options of {@link createDeliveryEngine}. */
export interface DeliveryEngineOptions<J extends DeliveryJob = DeliveryJob> {
  queue: DeliveryQueue<J>;
  /** The current URL and secrets of the job's installation, or null when it no longer exists. */
  resolveTarget(job: J): Promise<DeliveryTarget | null> | DeliveryTarget | null;
  /** A guarded dispatcher (`createGuardedDispatcher`). */
  dispatcher: Dispatcher;
  /** When given, the URL is re-validated before each attempt (a policy may have tightened). */
  policy?: AddressPolicy;
  /** For `User-Agent: Platform-Webhooks/<version>`. */
  userAgentVersion: string;
  /** Attempt timeout in ms. Default 10 000. */
  timeoutMs?: number;
  /** The sender (injectable). Default {@link sendWebhook}. */
  send?: (input: SendWebhookInput) => Promise<AttemptResult>;
  rng?: () => number;
  clock?: JobLoopClock;
  /** Deliveries in flight at once. Default 8. */
  concurrency?: number;
  /**
   * Claims a job up to this many ms before it falls due and sends it at its due time (`dueAt`), so what
   * happens between a retry falling due and its request leaving (the claim on a busy database, a busy
   * thread) is spent before the due time instead of from the window (docs/operations.md, "Retry
   * punctuality"). The job holds its slot meanwhile. Default 0.
   */
  claimAheadMs?: number;
  /**
   * A fair share per target (`targetOf`: the installation), so a slow or dead endpoint cannot hold every
   * slot: an attempt whose HTTP exchange runs past `slowMs` (default 500) gives its slot back and makes its target slow,
   * and a slow target has at most `limit` deliveries in flight (see `JobLoopOptions.perKey`). Needs
   * `queue.release`.
   */
  perTarget?: {
    targetOf(job: J): string;
    limit: number;
    slowMs?: number;
    /** A target became slow or stopped being slow. */
    onSlow?(target: string, slow: boolean): void;
  };
  /** Safety-net wake-up for work enqueued by other processes. Default 1000 ms. */
  idleCheckMs?: number;
  /** Storage or unexpected errors (the job's lease brings it back later). */
  onError?(error: unknown, phase: JobLoopErrorPhase, job?: J): void;
  /** Slots shared with a thread that hands over jobs it leased (see `JobLoopOptions.slots`); needs `runway` and `perTarget`. */
  slots?: JobLoopSlots;
  /** Where handed-over jobs wait for a slot (see `JobLoopOptions.runway`); given with `slots`, and only with them. */
  runway?: { jobs: number; waitMs: number };
  /** Called after each attempt with its decision (logs, metrics). */
  onAttempt?(job: J, attempt: RecordedAttempt, decision: Decision): void;
  /**
   * Starts the trace of an attempt (tracing on): its `traceparent` header is sent to the receiver. Absent
   * (tracing off): no per-attempt work at all.
   */
  traceAttempt?(job: J): AttemptTrace | undefined;
  /**
   * A retry (attempt 2 or later, with `dueAt`) leaves later after it fell due than its window leaves for
   * the trip to the receiver (`arrivalSlackMs`: 50 / 100 / 200 ms): how late and why, as the host can see
   * it (`diagnoseRetry`). For a metric and a log line.
   */
  onLateRetry?(job: J, late: LateRetry): void;
}

/** The running delivery engine. */
export interface DeliveryEngine<J extends DeliveryJob = DeliveryJob> {
  start(): void;
  /** A delivery was enqueued: look for due work now. */
  notify(): void;
  /** Work falls due at `at` (another process queued it): claim it in time (`claimAheadMs` before). */
  notifyDue(at: number): void;
  /** Delivers jobs already leased to this engine elsewhere (see `JobLoop.adopt`). */
  adopt(jobs: readonly J[]): void;
  /** Stops claiming; graceful (default) waits for in-flight attempts. */
  stop(options?: { graceful?: boolean }): Promise<void>;
  /**
   * Runs one claimed job through send → decide → finish (used by the job loop, which passes `timing`: the
   * HTTP exchange is what its fair share measures).
   */
  deliver(job: J, timing?: HandleTiming): Promise<void>;
  readonly jobLoop: JobLoop<J>;
}

/**
 * Ties the queue, the sender and the retry policy together: claim → send → decide → finish
 * (record the attempt + complete or reschedule) (the retry delay counts from the end of the failed attempt).
 *
 * @example
 * const engine = createDeliveryEngine({
 *   queue, // adapted from storage
 *   resolveTarget: async (job) => installations.webhookTarget(job.installationId),
 *   dispatcher: createGuardedDispatcher(policy),
 *   policy,
 *   userAgentVersion: '0.1.0',
 * });
 * engine.start();
 * // after enqueueing a delivery: engine.notify();
 */
export function createDeliveryEngine<J extends DeliveryJob>(
  options: DeliveryEngineOptions<J>,
): DeliveryEngine<J> {
  const clock = options.clock ?? systemClock;
  /** Retries due before this engine started waited for a host, not for a slot (delivery/lateness.ts). */
  const engineStartedAt = clock.now();
  const rng = options.rng ?? Math.random;
  const { queue } = options;
  const ahead = options.claimAheadMs ?? 0;
  if (!(Number.isInteger(ahead) && ahead >= 0)) {
    throw new RangeError(`createDeliveryEngine: claimAheadMs must be a whole number >= 0, got ${ahead}`);
  }
  /** The loop works in claimable times: a job can be claimed `ahead` ms before it falls due. */
  const notifyDue = (at: number) => jobLoop.notifyDue(at - ahead);
  /**
   * Until the clock reads past `at`: the millisecond after it, a margin for the receiver's clock (measured:
   * a retry sent the moment the host's clock read its due time arrived 0.03 ms "early" by the receiver's).
   * A timer may fire up to a millisecond early: look again.
   */
  const waitPast = async (at: number) => {
    while (clock.now() <= at) {
      await new Promise<void>((resolve) => {
        clock.setTimeout(resolve, Math.max(1, at + 1 - clock.now()));
      });
    }
  };

  const refused = (code: 'invalid_target' | 'target_unavailable', message: string): AttemptResult => ({
    startedAt: clock.now(),
    durationMs: 0,
    error: { code, message },
  });

  /**
   * The HTTP destination's client of the last URL (its check against the policy and its parsed URL made
   * once; consecutive deliveries mostly go to the same URL).
   */
  let http: { url: string; destination: NonNullable<DeliveryTarget['destination']> } | undefined;
  const httpDestination = (url: string) => {
    if (http?.url !== url) {
      const client = openHttpClient(url, {
        ...(options.policy ? { policy: options.policy } : {}),
        dispatcher: options.dispatcher,
        userAgentVersion: options.userAgentVersion,
        now: () => clock.now(),
        ...(options.send ? { send: options.send } : {}),
      });
      const kind = 'http';
      http = {
        url,
        destination: client.problem === undefined ? { kind, client } : { kind, problem: client.problem },
      };
    }
    return http.destination;
  };

  /** The attempt's result, and the schedule its target had (the spec's when there was none). */
  async function attempt(
    job: J,
    timing?: HandleTiming,
    traceparent?: string,
  ): Promise<{ result: AttemptResult; schedule: RetrySchedule }> {
    const target = await options.resolveTarget(job);
    if (!target)
      return {
        result: refused('target_unavailable', describe('target_unavailable')),
        schedule: SPEC_SCHEDULE,
      };
    const schedule = target.schedule ?? SPEC_SCHEDULE;
    // The declared destination's client, else HTTP to the target's URL (checked against the policy once per
    // client; a broker checks its addresses when it connects).
    const destination = target.destination ?? httpDestination(target.url);
    if ('problem' in destination) return { result: refused('invalid_target', destination.problem), schedule };
    // Claimed ahead: a retry leaves after its due time, never before. A first attempt is due when its event
    // was accepted: it leaves at once (unless claimed ahead of a later due time).
    if (job.dueAt !== undefined && (job.attempt > 1 || job.dueAt > clock.now())) await waitPast(job.dueAt);
    if (timing && job.attempt > 1 && job.dueAt !== undefined && options.onLateRetry) {
      const late = diagnoseRetry(
        { dueAt: job.dueAt, ...timing.launch, sendingAt: clock.now(), engineStartedAt },
        scheduleArrivalSlackMs(schedule, job.attempt - 1),
      );
      if (late) options.onLateRetry(job, late);
    }
    if (target.beforeSend) await target.beforeSend();
    // The fair share times the HTTP exchange only: the host's own storage work before and after it
    // (reading the target, recording the attempt) never makes an endpoint slow.
    timing?.begin();
    try {
      return { result: await sendVia(destination.client, job, target, traceparent), schedule };
    } finally {
      timing?.end();
    }
  }

  /** What one attempt of `job` says, on any destination: body, secrets and scheme, ids, attempt number. */
  function attemptInput(job: J, target: DeliveryTarget, traceparent: string | undefined) {
    return {
      body: job.body,
      secrets: target.secrets,
      ...(target.signing === undefined ? {} : { signing: target.signing }),
      eventId: job.eventId,
      eventType: job.eventType,
      deliveryId: job.id,
      attempt: job.attempt,
      userAgentVersion: options.userAgentVersion,
      ...(traceparent === undefined ? {} : { traceparent }),
    };
  }

  /**
   * One attempt through the destination's client, with the attempt's deadline. A client that signs each
   * attempt itself (HTTP) gets the endpoint's headers, the signing secrets, the trace context and the
   * endpoint's renewable `Authorization`; any other gets the headers HTTP sends (signature, ids, attempt
   * number, traceparent), signed here.
   */
  async function sendVia(
    client: DestinationClient,
    job: J,
    target: DeliveryTarget,
    traceparent: string | undefined,
  ): Promise<AttemptResult> {
    const message = {
      body: job.body,
      eventId: job.eventId,
      eventType: job.eventType,
      deliveryId: job.id,
      attempt: job.attempt,
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    if (client.signsEachAttempt) {
      return client.send(
        {
          ...message,
          headers: target.headers ?? {},
          signing: {
            secrets: target.secrets,
            ...(target.signing === undefined ? {} : { scheme: target.signing }),
          },
          ...(traceparent === undefined ? {} : { traceparent }),
          ...(target.authorization ? { authorization: target.authorization } : {}),
        },
        { timeoutMs },
      );
    }
    const startedAt = clock.now();
    const out = await deliveryHeaders(
      attemptInput(job, target, traceparent),
      Buffer.from(job.body, 'utf8'),
      () => clock.now(),
    );
    if ('error' in out)
      return { startedAt, durationMs: Math.max(0, clock.now() - startedAt), error: out.error };
    return client.send({ ...message, headers: out.headers }, { timeoutMs });
  }

  async function deliver(job: J, timing?: HandleTiming): Promise<void> {
    const trace = options.traceAttempt?.(job);
    if (!trace) return deliverTraced(job, timing, undefined);
    try {
      await deliverTraced(job, timing, trace);
    } catch (error) {
      trace.end(undefined, undefined, error);
      throw error;
    }
  }

  async function deliverTraced(job: J, timing: HandleTiming | undefined, trace: AttemptTrace | undefined) {
    const { result, schedule } = await attempt(job, timing, trace?.traceparent);
    const endedAt = clock.now();
    // The exchange is over: the slot goes to the next job while this attempt's record waits to be written
    // with others (`finish` may gather them). At most `concurrency` records wait so; past that a handle keeps
    // its slot until its record is written, which holds claims back.
    const early = timing !== undefined && recordsWaiting < concurrency;
    if (early) {
      recordsWaiting += 1;
      timing.release();
    }
    try {
      await record(job, { result, schedule, endedAt }, trace);
    } finally {
      if (early) recordsWaiting -= 1;
    }
  }

  /** Decides what the attempt's result means, then records it and ends or reschedules the job. */
  async function record(
    job: J,
    { result, schedule, endedAt }: { result: AttemptResult; schedule: RetrySchedule; endedAt: number },
    trace: AttemptTrace | undefined,
  ) {
    const recorded: RecordedAttempt = { attempt: job.attempt, ...result };
    const outcome: AttemptOutcome =
      result.statusCode !== undefined
        ? { statusCode: result.statusCode }
        : result.acknowledged === true
          ? { acknowledged: true }
          : { error: result.error ?? { code: 'network_error' } };
    const retryAfterMs =
      result.retryAfter === undefined ? undefined : parseRetryAfter(result.retryAfter, endedAt);
    const decision = decideWithSchedule(schedule, job.attempt, classify(outcome), rng, retryAfterMs);
    if ('state' in decision) {
      await queue.finish(job, recorded, { state: decision.state });
    } else {
      // The clock counts whole ms: the attempt ended before `endedAt + 1`, the retry is due that long after.
      const runAt = endedAt + 1 + decision.retryInMs;
      await queue.finish(job, recorded, { runAt });
      notifyDue(runAt);
    }
    options.onAttempt?.(job, recorded, decision);
    trace?.end(recorded, decision);
  }

  const { perTarget } = options;
  const release = queue.release?.bind(queue);
  if (perTarget && !release) {
    throw new TypeError('createDeliveryEngine: perTarget needs queue.release to give jobs back');
  }
  const concurrency = options.concurrency ?? 8;
  /** Attempts over whose slot was given back, waiting for their record to be written. */
  let recordsWaiting = 0;
  const jobLoop = createJobLoop<J>({
    claim: (limit, allowances) => queue.claim(limit, clock.now() + ahead, allowances),
    nextDueAt: async (exclude) => {
      const at = await queue.nextDueAt(exclude);
      return at === null ? null : at - ahead;
    },
    handle: deliver,
    clock,
    concurrency,
    idleCheckMs: options.idleCheckMs ?? 1000,
    onError: (error, phase, job) => options.onError?.(error, phase, job),
    ...(options.slots ? { slots: options.slots } : {}),
    ...(options.runway ? { runway: options.runway } : {}),
    ...(perTarget && release
      ? {
          perKey: {
            keyOf: perTarget.targetOf,
            limit: perTarget.limit,
            release,
            ...(perTarget.slowMs === undefined ? {} : { slowMs: perTarget.slowMs }),
            ...(perTarget.onSlow ? { onSlow: perTarget.onSlow } : {}),
            timedByHandle: true,
          },
        }
      : {}),
  });

  return {
    start: () => jobLoop.start(),
    notify: () => jobLoop.notify(),
    notifyDue,
    adopt: (jobs) => jobLoop.adopt(jobs),
    stop: (stopOptions) => jobLoop.stop(stopOptions),
    deliver,
    jobLoop,
  };
}
