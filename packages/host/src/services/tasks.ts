// Integration tasks (docs/tasks.md): a task an integration queues for itself is an `invoke` job whose event
// is `integration_task`, due `schedule` seconds later. The invocation worker runs it like any queued event:
// the same lease (a crashed host's task is taken again), the same retries, the same invocation log.
import { HOST_EVENT } from '@platform/events';
import { badRequest, HttpError } from '../errors.js';
import type { EnqueueInput, InstallationRecord } from '../storage/index.js';
import type { HostContext } from './context.js';
import { type InvokeJobPayload, newEventId } from './dispatch.js';
import { MAX_TASK_BYTES } from './task-limits.js';

/**
 * A validated task request (`POST /v1/integrations/{name}/tasks`, its schema in api/tasks.ts).
 * @example const body: QueueTaskInput = { task: { type: 'sync', payload: {} }, schedule: 30 };
 */
export interface QueueTaskInput {
  task: { type: string; payload?: unknown };
  schedule?: number | undefined;
}

/** A stored task: its id (the event's `eventId` and `taskId`) and when it falls due. */
export interface QueuedTaskRecord {
  id: string;
  runAt: number;
}

/**
 * The job of one task: an `invoke` job of the installation, due `schedule` seconds after `now`, whose event
 * is `integration_task` with the task. Pure; throws a 400 when the task is larger than {@link MAX_TASK_BYTES}.
 *
 * @example
 * const job = taskJob(installation, { task: { type: 'sync', payload: {} }, schedule: 30 }, Date.now());
 */
export function taskJob(
  installation: Pick<InstallationRecord, 'id'>,
  input: QueueTaskInput,
  now: number,
): { job: EnqueueInput; task: QueuedTaskRecord } {
  const task = { type: input.task.type, payload: input.task.payload ?? {} };
  const size = Buffer.byteLength(JSON.stringify(task));
  if (size > MAX_TASK_BYTES) {
    throw new HttpError(
      413,
      'task_too_large',
      `The task is ${size} bytes as JSON; at most ${MAX_TASK_BYTES} are accepted. Store the data elsewhere (e.g. in the installation's configuration) and pass a reference in the payload.`,
    );
  }
  const id = newEventId();
  const runAt = now + (input.schedule ?? 0) * 1000;
  const event: InvokeJobPayload['event'] = {
    type: HOST_EVENT.integrationTask,
    eventId: id,
    taskId: id,
    installationId: installation.id,
    task,
  };
  const payload: InvokeJobPayload = { event };
  return {
    job: { kind: 'invoke', installationId: installation.id, eventId: null, payload: { ...payload }, runAt },
    task: { id, runAt },
  };
}

/**
 * Queues a task of integration `name` for an installation of it: stored in the durable queue before this
 * resolves, run by the invocation worker once due.
 *
 * @example
 * const queued = await queueTask(ctx, 'my-app', installation, { task: { type: 'sync' }, schedule: 60 });
 */
export async function queueTask(
  ctx: HostContext,
  name: string,
  installation: InstallationRecord,
  input: QueueTaskInput,
): Promise<QueuedTaskRecord> {
  if (installation.integrationName !== name) {
    throw badRequest(
      `Installation "${installation.id}" is an installation of "${installation.integrationName}", not of "${name}": queue the task under its own integration.`,
    );
  }
  const now = Date.now();
  const { job, task } = taskJob(installation, input, now);
  await ctx.storage.jobs.enqueue([job], now);
  ctx.notify.invocations();
  return task;
}
