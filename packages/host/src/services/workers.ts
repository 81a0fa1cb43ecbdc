import { randomUUID } from 'node:crypto';
import { classify, decide } from '../delivery/policy.js';
import { createWorker, type Worker } from '../delivery/worker.js';
import type { FinishOutcome, JobRecord } from '../storage/index.js';
import type { HostContext } from './context.js';
import { leaseMs } from './delivery.js';
import type { InvokeJobPayload } from './dispatch.js';
import { type ExecutorSelector, invoke } from './invoker.js';

export {
  type DeliveryDeps,
  type DeliveryLog,
  deliverySocketsPerOrigin,
  leaseMs,
  slowInstallations,
  startDeliveryEngine,
} from './delivery.js';

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
