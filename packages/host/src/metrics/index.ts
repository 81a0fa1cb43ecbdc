/**
 * Prometheus metrics of the host (`GET /metrics`), with prom-client. Each thread keeps its own
 * registry: the main thread (events, invocations, queue, Node process) and the thread that runs the
 * delivery engine (attempts); a scrape joins their texts (no metric name is in both). No label carries
 * an installation or event id: the number of series stays fixed however many subscribers there are.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Decision } from '../jobs/policy.js';
import type { QueueStats } from '../storage/index.js';

const KINDS = ['deliver', 'invoke'] as const;

/** Each series a scrape reports: its labels (`{}` for a counter without labels) and its count. */
type ScrapedCounts = Iterable<readonly [Record<string, string>, number]>;

/**
 * A counter that reads, at each scrape, plain numbers kept on the hot path (`read()`), instead of being
 * incremented there.
 *
 * @example
 * scrapedCounter(registry, { name: 'x_total', help: 'X by code', labelNames: ['code'] }, () => [[{ code: 'a' }, 1]]);
 */
function scrapedCounter(
  registry: Registry,
  config: { name: string; help: string; labelNames?: string[] },
  read: () => ScrapedCounts,
): void {
  new Counter({
    ...config,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, count] of read()) this.inc(labels, count);
    },
  });
}

/** A {@link scrapedCounter} without labels: one series, `count()` at each scrape. */
function scrapedTotal(registry: Registry, name: string, help: string, count: () => number): void {
  scrapedCounter(registry, { name, help }, () => [[{}, count()]]);
}

/** A {@link scrapedCounter} with one label: a series per entry of `counts()` (label value → count). */
function scrapedByLabel(
  registry: Registry,
  { name, help, label }: { name: string; help: string; label: string },
  counts: () => Iterable<readonly [string, number]>,
): void {
  scrapedCounter(registry, { name, help, labelNames: [label] }, () =>
    Array.from(counts(), ([value, count]) => [{ [label]: value }, count] as const),
  );
}

/** `Content-Type` of the text a scrape answers. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** What the delivery engine records after each attempt. */
export interface DeliveryMetrics {
  readonly registry: Registry;
  /** One attempt: how long it took, and what came of it (`decision`). */
  recordAttempt(attempt: { durationMs: number; error?: { code: string } }, decision: Decision): void;
  /**
   * A retry that left later after it fell due than its window leaves for the trip (50 / 100 / 200 ms), and
   * the cause the host saw (`diagnoseRetry`).
   */
  retryLate(cause: string, lateMs: number): void;
  /** One claim of due `deliver` jobs: how many it got (0: it came back empty). */
  queueClaim(claimed: number): void;
  /** One read of the next due time (the claim found less than it had room for, or the timer fired). */
  queueNextDueRead(): void;
  /** Another host's queue signal heard (PostgreSQL, several hosts). */
  queueSignal(): void;
}

/** Options of {@link createDeliveryMetrics}. */
export interface DeliveryMetricsOptions {
  /**
   * The statements this thread's own storage has sent so far (a delivery thread with a connection pool of
   * its own): `platform_delivery_thread_statements_total`. Left out where the engine shares the main
   * thread's storage (its statements are counted there).
   */
  statements?: () => number;
}

/**
 * The delivery engine's metrics: `platform_webhook_attempts_total{outcome}` (succeeded, retry, failed,
 * exhausted), `platform_webhook_attempt_errors_total{code}` (attempts with no HTTP answer) and
 * `platform_webhook_attempt_duration_seconds`; late retries: `platform_webhook_retries_late_total{cause}` and
 * `platform_webhook_retry_lateness_seconds`.
 *
 * @example
 * const metrics = createDeliveryMetrics();
 * metrics.recordAttempt({ durationMs: 42 }, { state: 'succeeded' });
 */
export function createDeliveryMetrics(
  registry = new Registry(),
  options: DeliveryMetricsOptions = {},
): DeliveryMetrics {
  // Plain numbers on the hot path; the counters read them at a scrape (`collect`).
  const outcomes = { succeeded: 0, retry: 0, failed: 0, exhausted: 0 };
  const queue = { jobs: 0, empty: 0, claimed: 0, nextDueReads: 0, signals: 0 };
  registerQueueCounters(registry, queue);
  const statements = options.statements;
  if (statements) {
    scrapedTotal(
      registry,
      'platform_delivery_thread_statements_total',
      'Statements the delivery thread sent to its database connections (PostgreSQL; BEGIN and COMMIT included)',
      statements,
    );
  }
  const errorCodes = new Map<string, number>();
  scrapedByLabel(
    registry,
    {
      name: 'platform_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded (2xx), retry (scheduled again), failed (not retryable), exhausted (retries used up)',
      label: 'outcome',
    },
    () => Object.entries(outcomes),
  );
  scrapedByLabel(
    registry,
    {
      name: 'platform_webhook_attempt_errors_total',
      help: 'Webhook delivery attempts that got no HTTP answer, by error code (timeout, connection_refused, target_blocked, ...)',
      label: 'code',
    },
    () => errorCodes,
  );
  const duration = new Histogram({
    name: 'platform_webhook_attempt_duration_seconds',
    help: 'Time from sending a webhook to its answer or failure',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const lateRetries = new Map<string, number>();
  scrapedByLabel(
    registry,
    {
      name: 'platform_webhook_retries_late_total',
      help: 'Webhook retries that left later after they fell due than their window leaves for the trip to the receiver (50, 100, 200 ms for retries 1, 2, 3), by the cause the host saw: host_not_running, event_loop_delay, waiting_for_slot, claim (the database), preparing',
      label: 'cause',
    },
    () => lateRetries,
  );
  const lateness = new Histogram({
    name: 'platform_webhook_retry_lateness_seconds',
    help: 'How long after it fell due a late webhook retry left (late: past 50, 100, 200 ms for retries 1, 2, 3)',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    registry,
    retryLate(cause, lateMs) {
      lateRetries.set(cause, (lateRetries.get(cause) ?? 0) + 1);
      lateness.observe(lateMs / 1000);
    },
    queueClaim(claimed) {
      if (claimed > 0) {
        queue.jobs++;
        queue.claimed += claimed;
      } else queue.empty++;
    },
    queueNextDueRead() {
      queue.nextDueReads++;
    },
    queueSignal() {
      queue.signals++;
    },
    recordAttempt(attempt, decision) {
      outcomes['state' in decision ? decision.state : 'retry']++;
      if (attempt.error) errorCodes.set(attempt.error.code, (errorCodes.get(attempt.error.code) ?? 0) + 1);
      duration.observe(attempt.durationMs / 1000);
    },
  };
}

/**
 * The delivery engine's queue work, per scrape (docs/benchmarks.md, "Several hosts: costs that grow with
 * hosts"): claims that got jobs and claims that came back empty, jobs claimed, next-due reads, and other
 * hosts' signals heard. Divided by deliveries, they say what one delivery costs the queue, and whether that
 * grows with the number of hosts.
 */
function registerQueueCounters(
  registry: Registry,
  queue: { jobs: number; empty: number; claimed: number; nextDueReads: number; signals: number },
) {
  scrapedByLabel(
    registry,
    {
      name: 'platform_queue_claims_total',
      help: 'Claims of due webhook deliveries by this host: result="jobs" got at least one, result="empty" none',
      label: 'result',
    },
    () => [
      ['jobs', queue.jobs],
      ['empty', queue.empty],
    ],
  );
  const total = (name: string, help: string, count: () => number) =>
    scrapedTotal(registry, name, help, count);
  total(
    'platform_queue_claimed_total',
    'Webhook deliveries this host claimed from the queue (deliveries handed over by its own accepting writes are not claimed)',
    () => queue.claimed,
  );
  total(
    'platform_queue_next_due_reads_total',
    'Reads of the next due time of webhook deliveries by this host',
    () => queue.nextDueReads,
  );
  total(
    'platform_queue_signals_total',
    "Other hosts' queue signals of webhook deliveries this host heard: retries due later, and calls for help from a host that cannot keep up (PostgreSQL, several hosts)",
    () => queue.signals,
  );
}

/** What the main thread records, and where it reads the queue from at a scrape. */
export interface HostMetrics {
  readonly registry: Registry;
  /** An event posted to `POST /v1/events`: stored, or a repeat of a known `eventId`. */
  eventAccepted(type: string, duplicate: boolean): void;
  /** One call of an integration (`ok`, or the executor's error code) and its duration. */
  invocation(outcome: string, durationMs: number): void;
  /** An accepted event a webhook installation's payload filter kept from it (no delivery made). */
  webhookFiltered(installationId: string): void;
  /** Events the installation's filter kept from it, accepted by this host since it started. */
  filteredCount(installationId: string): number;
}

/** Installations whose filtered count a host keeps (past this, the counts start over). */
const MAX_FILTERED_INSTALLATIONS = 10_000;

/** Sources the main thread's gauges read at each scrape. */
export interface HostMetricsSources {
  /** The queue now (`storage.jobs.queueStats`). */
  queueStats(now: number): Promise<QueueStats[]>;
  /** Installations whose webhook endpoint the fair share holds for slow now. */
  slowEndpoints(): number;
  /** Statements this thread's storage sent so far (PostgreSQL); left out: not counted. */
  statements?: () => number;
  /** SQLite log syncs this thread ran so far, by way (`walSyncsSoFar`); left out: not counted. */
  logSyncs?: () => Iterable<readonly [string, { count: number; seconds: number }]>;
  now?: () => number;
}

/** How often the event loop's lag is sampled (ms): see `createHostMetrics`. */
const LAG_SAMPLE_MS = 100;

/**
 * The main thread's metrics: events, invocations, the queue (`platform_jobs{kind,state}`,
 * `platform_jobs_oldest_due_age_seconds{kind}`: how far behind the workers are), slow webhook endpoints,
 * SQLite's log syncs by way (with `logSyncs`), and Node's process metrics (CPU, memory, event loop lag).
 *
 * @example
 * const metrics = createHostMetrics({ queueStats: (now) => storage.jobs.queueStats(now), slowEndpoints: () => 0 });
 * metrics.eventAccepted(event.type, false);
 */
export function createHostMetrics(sources: HostMetricsSources, registry = new Registry()): HostMetrics {
  const now = sources.now ?? Date.now;
  // The event loop lag is sampled every 100 ms, not every 10 (prom-client's default): each sample wakes the
  // thread, and those 100 wake-ups a second were half an idle main thread's CPU (0.012 -> 0.006 cores;
  // docs/benchmarks.md, "Syncs on the calling thread"). Stalls of a few ms and longer still show.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: LAG_SAMPLE_MS });
  const logSyncs = sources.logSyncs;
  if (logSyncs) {
    scrapedByLabel(
      registry,
      {
        name: 'platform_sqlite_log_syncs_total',
        help: "Syncs of SQLite's log that accepted writes waited for, by where they ran: inline (the main thread, at the end of its turn) or pool (libuv's threads: a slow disk or a saturated thread)",
        label: 'way',
      },
      () => Array.from(logSyncs(), ([way, { count }]) => [way, count] as const),
    );
    scrapedByLabel(
      registry,
      {
        name: 'platform_sqlite_log_sync_seconds_total',
        help: "Time spent in syncs of SQLite's log, by way (divided by platform_sqlite_log_syncs_total: the average sync)",
        label: 'way',
      },
      () => Array.from(logSyncs(), ([way, { seconds }]) => [way, seconds] as const),
    );
  }
  const statements = sources.statements;
  if (statements) {
    scrapedTotal(
      registry,
      'platform_storage_statements_total',
      "Statements the host's main thread sent to its database connections (PostgreSQL; BEGIN and COMMIT included)",
      statements,
    );
  }
  // Plain numbers on the hot path (an event is a few hundred µs of work); the counter reads them at a scrape.
  const eventCounts = new Map<string, { type: string; result: string; count: number }>();
  scrapedCounter(
    registry,
    {
      name: 'platform_events_total',
      help: 'Events posted to POST /v1/events, by type and result: accepted (stored and fanned out) or duplicate (a known eventId)',
      labelNames: ['type', 'result'],
    },
    () => [...eventCounts.values()].map(({ type, result, count }) => [{ type, result }, count]),
  );
  const invocations = new Counter({
    name: 'platform_invocations_total',
    help: 'Calls of integration code (events, public endpoints, renders), by outcome: ok or the error code (timeout, crashed, ...)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const invocationDuration = new Histogram({
    name: 'platform_invocation_duration_seconds',
    help: 'Duration of calls of integration code',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // Both queue gauges read one query per scrape (prom-client collects the metrics of a scrape concurrently).
  let read: { at: number; stats: Promise<QueueStats[]> } | null = null;
  const queue = (): Promise<QueueStats[]> => {
    const at = now();
    if (!read || at - read.at > 1000) read = { at, stats: sources.queueStats(at) };
    return read.stats;
  };
  new Gauge({
    name: 'platform_jobs',
    help: "Unfinished jobs by kind (deliver: webhook deliveries, invoke: integration events) and state: queued (waiting, due or not), due (queued and due now), held (a slow endpoint's deliveries waiting for its share), running",
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const stats = await queue();
      for (const kind of KINDS) {
        const s = stats.find((x) => x.kind === kind);
        this.labels(kind, 'queued').set(s?.queued ?? 0);
        this.labels(kind, 'due').set(s?.due ?? 0);
        this.labels(kind, 'held').set(s?.held ?? 0);
        this.labels(kind, 'running').set(s?.running ?? 0);
      }
    },
  });
  new Gauge({
    name: 'platform_jobs_oldest_due_age_seconds',
    help: 'Age of the oldest job that is due and still waiting, by kind (0 when none): how far behind the workers are',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const stats = await queue();
      const at = now();
      for (const kind of KINDS) {
        const oldest = stats.find((x) => x.kind === kind)?.oldestDueAt ?? null;
        this.labels(kind).set(oldest === null ? 0 : Math.max(0, (at - oldest) / 1000));
      }
    },
  });
  new Gauge({
    name: 'platform_webhook_slow_endpoints',
    help: 'Webhook installations whose endpoint is held to its fair share now (an attempt ran past 500 ms within the last minute)',
    registers: [registry],
    collect() {
      this.set(sources.slowEndpoints());
    },
  });
  // Per installation for its page (dashboard, API); one series in /metrics (no label per installation).
  const filteredBy = new Map<string, number>();
  const filtered = new Counter({
    name: 'platform_webhook_filtered_events_total',
    help: 'Accepted events that a webhook installation selected but its payload filter kept from it (no delivery made), counted once per installation',
    registers: [registry],
  });
  return {
    registry,
    webhookFiltered(installationId) {
      filtered.inc();
      if (filteredBy.size >= MAX_FILTERED_INSTALLATIONS && !filteredBy.has(installationId))
        filteredBy.clear();
      filteredBy.set(installationId, (filteredBy.get(installationId) ?? 0) + 1);
    },
    filteredCount: (installationId) => filteredBy.get(installationId) ?? 0,
    eventAccepted(type, duplicate) {
      const result = duplicate ? 'duplicate' : 'accepted';
      const key = `${type}\n${result}`;
      const entry = eventCounts.get(key);
      if (entry) entry.count++;
      else eventCounts.set(key, { type, result, count: 1 });
    },
    invocation(outcome, durationMs) {
      invocations.labels(outcome).inc();
      invocationDuration.observe(durationMs / 1000);
    },
  };
}

/**
 * The text of a scrape: the main registry's, then the other threads' (each a registry's `metrics()`).
 *
 * @example
 * const text = await scrapeText(hostMetrics.registry, [await deliveryRunner.metrics()]);
 */
export async function scrapeText(main: Registry, others: readonly string[]): Promise<string> {
  const texts = [await main.metrics(), ...others].filter((text) => text !== '');
  return texts.map((text) => (text.endsWith('\n') ? text : `${text}\n`)).join('');
}
