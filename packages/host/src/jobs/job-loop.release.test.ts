import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createJobLoop, type HandleTiming, type JobLoopErrorPhase } from './job-loop.js';

const noErrors = (error: unknown, phase: JobLoopErrorPhase) => {
  throw new Error(`unexpected ${phase} error: ${String(error)}`);
};

/** A gate a handle waits on (its "record"), opened by the test. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('job loop: timing.release() gives the slot back before the handle ends', () => {
  it('with one slot, the next job starts while the first still records; stop() waits for every record', async () => {
    const pending = [1, 2, 3, 4];
    const started: number[] = [];
    const recorded: number[] = [];
    const record = gate();
    const loop = createJobLoop({
      claim: async (limit: number) => pending.splice(0, limit).map((id) => ({ id })),
      nextDueAt: async () => (pending.length > 0 ? Date.now() : null),
      handle: async (job: { id: number }, timing: HandleTiming) => {
        started.push(job.id);
        await sleep(1); // the exchange
        if (job.id !== 3) {
          timing.release();
          timing.release(); // idempotent: a second call gives nothing more
        }
        await record.opened; // the record, written later with others
        recorded.push(job.id);
      },
      concurrency: 1,
      batchDelayMs: 0,
      idleCheckMs: 60_000,
      onError: noErrors,
    });
    loop.start();
    // Jobs 1 and 2 released their slot: job 3 runs although neither has recorded; job 3 keeps its slot.
    await expect.poll(() => started, { timeout: 5000 }).toEqual([1, 2, 3]);
    expect(recorded).toEqual([]);
    expect(loop.inFlight).toBe(3);
    // Job 3 holds the only slot (each release gave one slot back, once): job 4 does not start beside it.
    await sleep(20);
    expect(started).toEqual([1, 2, 3]);
    const stopped = loop.stop({ graceful: true });
    let done = false;
    void stopped.then(() => {
      done = true;
    });
    await sleep(20);
    expect(done).toBe(false); // still waiting for the records
    record.open();
    await stopped;
    expect(recorded.sort()).toEqual([1, 2, 3]);
    expect(started).toEqual([1, 2, 3]); // stopped before job 4: it stays in the queue
  });
});
