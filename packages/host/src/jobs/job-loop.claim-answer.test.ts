import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type ClaimAnswer, createJobLoop, type JobLoopClock, type JobLoopErrorPhase } from './job-loop.js';

/**
 * A due queue whose claim answers as the PostgreSQL queue does (`counted`: the jobs and whether due jobs
 * were left behind) or as SQLite does (a plain array). Records what every claim got.
 */
function queue(count: number, counted: boolean) {
  const pending = Array.from({ length: count }, (_, id) => ({ id }));
  const got: number[] = [];
  return {
    got,
    async claim(limit: number): Promise<ClaimAnswer<{ id: number }>> {
      const jobs = pending.splice(0, limit);
      got.push(jobs.length);
      return counted ? { jobs, moreDue: pending.length > 0 } : jobs;
    },
    // No due time to arm a timer for: only freed slots and the claims' answers drive the loop here (a timer
    // armed for work that freed slots then claim first would come back empty on a loaded machine).
    async nextDueAt() {
      return null;
    },
  };
}

const noErrors = (error: unknown, phase: JobLoopErrorPhase) => {
  throw new Error(`unexpected ${phase} error: ${String(error)}`);
};

/**
 * Runs `count` jobs to the end, then waits: until `settled(got)` holds (5 s at most; what a stalled machine
 * delays still comes), else 30 ms (for an assertion that a claim does NOT come, which a slow machine can
 * only make pass, never fail).
 */
async function run(count: number, counted: boolean, settled?: (got: readonly number[]) => boolean) {
  const q = queue(count, counted);
  const done: number[] = [];
  const loop = createJobLoop({
    claim: (limit) => q.claim(limit),
    nextDueAt: () => q.nextDueAt(),
    handle: async (job: { id: number }) => {
      await sleep(2);
      done.push(job.id);
    },
    concurrency: 4,
    batchDelayMs: 0,
    idleCheckMs: 60_000,
    onError: noErrors,
  });
  loop.start();
  await expect.poll(() => done.length, { timeout: 5000 }).toBe(count);
  if (settled) await expect.poll(() => settled(q.got), { timeout: 5000 }).toBe(true);
  else await sleep(30);
  await loop.stop();
  return { got: q.got, done };
}

describe('job loop: a claim that tells whether due work was left', () => {
  it('a full claim that took the last due job is not followed by a claim that comes back empty', async () => {
    const guessed = await run(4, false, (got) => got.slice(1).includes(0));
    // Without the count, the full claim guesses more is due: the next free slot claims and gets nothing.
    expect(guessed.got[0]).toBe(4);
    expect(guessed.got.slice(1)).toContain(0);
    const told = await run(4, true);
    expect(told.got).toEqual([4]);
    expect(told.done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
  });

  it('moreDue: true makes the next free slot claim the rest, with no empty claim at the end', async () => {
    const { got, done } = await run(10, true);
    expect(got.reduce((a, b) => a + b, 0)).toBe(10);
    expect(got).not.toContain(0);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it('a claim answers the end-of-turn claim scheduled before it: none follows the claim that drained the queue', async () => {
    // The batch timer (a clock timer, fired by hand here) and an end-of-turn claim both pending: jobs ending
    // on either side of the half-busy mark schedule one each. The one that runs first claims for every free
    // slot and drains the queue; the other must not claim again (it would come back empty).
    const timers: Array<() => void> = [];
    const clock: JobLoopClock = {
      now: () => Date.now(),
      setTimeout: (callback) => timers.push(callback),
      clearTimeout: (handle) => {
        timers[(handle as number) - 1] = () => {};
      },
    };
    const q = queue(6, true);
    const ends = new Map<number, () => void>();
    const loop = createJobLoop({
      claim: (limit) => q.claim(limit),
      nextDueAt: () => q.nextDueAt(),
      handle: (job: { id: number }) => new Promise<void>((resolve) => ends.set(job.id, resolve)),
      concurrency: 4,
      clock,
      idleCheckMs: 60_000,
      onError: noErrors,
    });
    loop.start();
    await expect.poll(() => ends.size, { timeout: 5000 }).toBe(4);
    expect(q.got).toEqual([4]);
    const armed = timers.length;
    // In one turn: job 0 ends with 3 of 4 slots busy (a batch timer), jobs 1 and 2 leave 1 busy (end of turn).
    for (const id of [0, 1, 2]) {
      ends.get(id)?.();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    expect(timers.length).toBe(armed + 1);
    timers[armed]?.(); // the batch timer fires first, in the same turn
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(q.got).toEqual([4, 2]);
    await sleep(30); // the end-of-turn claim's turn has passed: a slow machine can only make this pass
    expect(q.got).toEqual([4, 2]);
    for (const id of [3, 4, 5]) ends.get(id)?.();
    await loop.stop();
  });
});
