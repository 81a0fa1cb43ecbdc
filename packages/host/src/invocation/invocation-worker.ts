import { randomUUID } from 'node:crypto';
import { createJobLoop, type JobLoop } from '../jobs/job-loop.js';
import { leaseMs } from '../jobs/lease.js';
import { decide } from '../jobs/policy.js';
import {
  type FinishOutcome,
  HomeHelp,
  type InstallationRecord,
  type IntegrationRecord,
  type JobRecord,
  wakeOnSignals,
} from '../storage/index.js';
import { classifyInvocation } from './invocation-policy.js';
import { type InvocationSpan, startInvocationSpan } from './invocation-trace.js';
import { type ExecutorSelector, invoke } from './invoker.js';
import { type InvokeJobPayload, openSetupEvent } from './payload.js';
import type { InvocationHost } from './port.js';

/** The log line of a retry decision: "retrying in 2 s (attempt 2)" or "gave up after 4 attempts". */
export function decisionLine(decision: ReturnType<typeof decide>, attempt: number): string | undefined {
  if ('retryInMs' in decision) {
    const seconds = decision.retryInMs / 1000;
    const delay = seconds < 60 ? `${Math.round(seconds * 10) / 10} s` : `${Math.round(seconds / 60)} min`;
    return `attempt ${attempt} failed; retrying in ${delay} (attempt ${attempt + 1})`;
  }
  if (decision.state === 'exhausted') return `gave up after ${attempt} attempts`;
  if (decision.state === 'failed') return `attempt ${attempt} failed; not retried (this failure is final)`;
  return undefined;
}

/** Invocations one host runs at once. */
const INVOCATION_CONCURRENCY = 16;

/**
 * The invocation worker: posts queued events (`invoke` jobs) to integrations, retrying failures
 * as invocation/invocation-policy.ts classifies them, on the webhook retry schedule.
 */
export function startInvocationWorker(ctx: InvocationHost, executors: ExecutorSelector): JobLoop {
  const { jobs } = ctx.storage;
  const lease = leaseMs(ctx.config.invocationTimeoutMs);
  // Other hosts' invocations due now are theirs first; with half the slots free here, a call for help is answered.
  const help: HomeHelp = new HomeHelp(
    () => worker.inFlight <= INVOCATION_CONCURRENCY / 2,
    () => worker.notify(),
    () => jobs.askForHelp('invoke'),
    (error) => ctx.logger.warn({ err: error }, 'could not ask the other hosts for help'),
  );
  const worker: JobLoop<JobRecord> = createJobLoop<JobRecord>({
    claim: async (limit) => {
      const claimed = await jobs.claim({
        kinds: ['invoke'],
        limit,
        leaseMs: lease,
        now: Date.now(),
        help: help.active,
      });
      help.claimed(claimed.length, limit, claimed.moreDue);
      return claimed;
    },
    nextDueAt: () => jobs.nextDueAt(['invoke']),
    concurrency: INVOCATION_CONCURRENCY,
    idleCheckMs: ctx.config.queuePollMs,
    onError: (error, phase, job) =>
      ctx.logger.error({ err: error, phase, job: job?.id }, 'invocation worker error'),
    handle: async (job) => {
      const number = job.attempt + 1;
      const installation = await ctx.storage.installations.get(job.installationId);
      const integration = installation
        ? await ctx.storage.integrations.getLatest(installation.integrationName)
        : null;
      if (!installation || !integration) {
        await jobs.complete(job, 'failed', Date.now(), 'the installation no longer exists');
        return;
      }
      const { event: queued, traceparent } = job.payload as unknown as InvokeJobPayload;
      const event = openSetupEvent(ctx.storage.secrets, queued);
      // Tracing on: a span per attempt, under the fan-out span stored with the job.
      const span: InvocationSpan | undefined = ctx.tracing
        ? startInvocationSpan(ctx.tracing, {
            integration,
            installation,
            event,
            attempt: number,
            parent: traceparent,
          })
        : undefined;
      try {
        await attemptInvocation(job, number, installation, integration, event, span);
      } catch (error) {
        span?.end(undefined, undefined, error);
        throw error;
      }
    },
  });
  /** One attempt of a queued invocation: invoke, then record the attempt and the job's end in one transaction. */
  async function attemptInvocation(
    job: JobRecord,
    number: number,
    installation: InstallationRecord,
    integration: IntegrationRecord,
    event: InvokeJobPayload['event'],
    span: InvocationSpan | undefined,
  ): Promise<void> {
    // Set by `decide` below, once the outcome is known (before the invocation's log is written).
    const decided: { value: ReturnType<typeof decide> } = { value: { state: 'failed' } };
    const startedAt = Date.now();
    const outcome = await invoke(
      ctx,
      executors,
      integration,
      installation,
      { ...event, eventId: event.eventId ?? randomUUID() },
      undefined,
      {
        attempt: number,
        // One line per decision in the invocation's log: what the author sees in `dev` and `tail`.
        decide: (result) => {
          decided.value = decide(number, classifyInvocation(result));
          return decisionLine(decided.value, number);
        },
        ...(span ? { trace: span.trace } : {}),
      },
    );
    let excerpt: string | null = null;
    if (outcome.ok) excerpt = (await outcome.response.text().catch(() => '')).slice(0, 4096);
    const decision = decided.value;
    const now = Date.now();
    const end: FinishOutcome =
      'retryInMs' in decision
        ? {
            runAt: now + decision.retryInMs,
            lastError: outcome.ok ? `HTTP ${outcome.response.status}` : outcome.error.code,
          }
        : { state: decision.state, lastError: outcome.ok ? null : outcome.error.code };
    // One transaction: the attempt, and the job's end (final state, or back in the queue).
    const attempt = {
      series: job.series,
      number,
      startedAt,
      durationMs: Math.round(outcome.durationMs),
      statusCode: outcome.ok ? outcome.response.status : null,
      error: outcome.ok ? null : `${outcome.error.code}: ${outcome.error.message}`,
      responseExcerpt: excerpt,
    };
    await jobs.finishAttempt(job, attempt, end, now);
    span?.end(outcome, decision);
    if ('runAt' in end) worker.notifyDue(end.runAt);
  }
  worker.start();
  // Invocations queued or rescheduled by other hosts on the same database (PostgreSQL).
  const woken = {
    notify: () => worker.notify(),
    notifyDue: (at: number) => worker.notifyDue(at),
    help: () => help.asked(),
  };
  const listener = wakeOnSignals(ctx.storage.listenQueue, 'invoke', woken, (error) =>
    ctx.logger.warn({ err: error }, 'queue signals: the listening connection failed; reconnecting'),
  );
  return {
    ...worker,
    get inFlight() {
      return worker.inFlight;
    },
    get state() {
      return worker.state;
    },
    stop: async (options) => {
      await listener.close();
      await worker.stop(options);
    },
  };
}
