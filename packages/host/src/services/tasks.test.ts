import { describe, expect, it } from 'vitest';
import { MAX_TASK_BYTES } from './task-limits.js';
import { taskJob } from './tasks.js';

describe('taskJob', () => {
  it('is an invoke job of the installation, due after the schedule, whose event is the task', () => {
    const { job, task } = taskJob(
      { id: 'inst_1' },
      { task: { type: 'sync', payload: { page: 2 } }, schedule: 30 },
      1_000,
    );
    expect(task.runAt).toBe(31_000);
    expect(task.id).toMatch(/^evt_/);
    expect(job).toMatchObject({ kind: 'invoke', installationId: 'inst_1', runAt: 31_000 });
    expect(job.payload).toEqual({
      event: {
        type: 'integration_task',
        eventId: task.id,
        taskId: task.id,
        installationId: 'inst_1',
        task: { type: 'sync', payload: { page: 2 } },
      },
    });
  });

  it('runs at once without a schedule, with an empty payload when none is given', () => {
    const { job, task } = taskJob({ id: 'inst_1' }, { task: { type: 'ping' } }, 5);
    expect(task.runAt).toBe(5);
    expect((job.payload.event as { task: unknown }).task).toEqual({ type: 'ping', payload: {} });
  });

  it('refuses a task larger than the limit with what to do instead', () => {
    const payload = 'x'.repeat(MAX_TASK_BYTES);
    expect(() => taskJob({ id: 'inst_1' }, { task: { type: 'big', payload } }, 0)).toThrow(
      /at most 65536 are accepted\. Store the data elsewhere/,
    );
  });
});
