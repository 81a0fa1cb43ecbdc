import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { createDeliveryEngine, type DeliveryEngine, type DeliveryJob } from '../delivery/engine.js';
import { classify, decide } from '../delivery/policy.js';
import { createWorker, type Worker } from '../delivery/worker.js';
import type { FinishOutcome, JobRecord } from '../storage/index.js';
import type { HostContext } from './context.js';
import type { DeliverJobPayload, InvokeJobPayload } from './dispatch.js';
import { type ExecutorSelector, invoke } from './invoker.js';

/** How long a claimed job stays leased: past this, a crashed worker's job is taken again. */
export function leaseMs(attemptTimeoutMs: number): number {
  return attemptTimeoutMs + 5_000;
}

interface QueuedDelivery extends DeliveryJob {
  record: JobRecord;
}

/** The webhook delivery engine, on the durable queue's `deliver` jobs. */
export function startDeliveryEngine(
  ctx: HostContext,
  dispatcher: Dispatcher,
  version: string,
): DeliveryEngine<QueuedDelivery> {
  const { jobs } = ctx.storage;
  const lease = leaseMs(ctx.config.deliveryTimeoutMs);
  const engine = createDeliveryEngine<QueuedDelivery>({
    queue: {
      claim: async (limit) => {
        const claimed = await jobs.claim({ kinds: ['deliver'], limit, leaseMs: lease, now: Date.now() });
        return claimed.map((record) => {
          const payload = record.payload as unknown as DeliverJobPayload;
          return {
            record,
            id: record.id,
            eventId: record.eventId ?? '',
            eventType: payload.eventType,
            body: payload.body,
            attempt: record.attempt + 1,
          };
        });
      },
      finish: async (job, attempt, end) => {
        // One transaction: the attempt, and the job's end (final state, or back in the queue).
        await jobs.finishAttempt(
          job.record,
          {
            series: job.record.series,
            number: attempt.attempt,
            startedAt: attempt.startedAt,
            durationMs: attempt.durationMs,
            statusCode: attempt.statusCode ?? null,
            error: attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : null,
            responseExcerpt: attempt.responseExcerpt ?? null,
          },
          'state' in end ? { state: end.state } : { runAt: end.runAt, lastError: null },
          Date.now(),
        );
      },
      nextDueAt: () => jobs.nextDueAt(['deliver']),
    },
    resolveTarget: async (job) => {
      const installation = await ctx.storage.installations.get(job.record.installationId);
      if (!installation || typeof installation.configuration.url !== 'string') return null;
      const secrets = await ctx.storage.webhookSecrets.active(installation.id, Date.now());
      return { url: installation.configuration.url, secrets };
    },
    dispatcher,
    policy: ctx.policy,
    userAgentVersion: version,
    timeoutMs: ctx.config.deliveryTimeoutMs,
    concurrency: ctx.config.deliveryConcurrency,
    onError: (error, phase, job) =>
      ctx.logger.error({ err: error, phase, delivery: job?.id }, 'delivery engine error'),
  });
  engine.start();
  return engine;
}

/**
 * The invocation worker: posts queued events (`invoke` jobs) to integrations, retrying failures
 * (executor errors, 5xx, 429) with the webhook retry schedule.
 */
export function startInvokeWorker(ctx: HostContext, executors: ExecutorSelector): Worker {
  const { jobs } = ctx.storage;
  const lease = leaseMs(ctx.config.invocationTimeoutMs);
  const worker = createWorker<JobRecord>({
    claim: (limit) => jobs.claim({ kinds: ['invoke'], limit, leaseMs: lease, now: Date.now() }),
    nextDueAt: () => jobs.nextDueAt(['invoke']),
    concurrency: 16,
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
      const { event } = job.payload as unknown as InvokeJobPayload;
      const startedAt = Date.now();
      const outcome = await invoke(ctx, executors, integration, installation, {
        ...event,
        eventId: event.eventId ?? randomUUID(),
      });
      let excerpt: string | null = null;
      if (outcome.ok) excerpt = (await outcome.response.text().catch(() => '')).slice(0, 4096);
      const classification = classify(
        outcome.ok
          ? { statusCode: outcome.response.status }
          : { error: { code: outcome.error.code === 'load_failed' ? 'load_failed' : 'timeout' } },
      );
      const decision = decide(number, classification);
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
      if ('runAt' in end) worker.notifyDue(end.runAt);
    },
  });
  worker.start();
  return worker;
}
