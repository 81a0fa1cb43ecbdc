import { describe, expect, it } from 'vitest';
import { DeliverySlots } from '../delivery/host/slots.js';
import { createJobLoop, type JobLoopErrorPhase, systemClock } from './job-loop.js';

type Job = { id: string };

const noErrors = (error: unknown, phase: JobLoopErrorPhase) => {
  throw new Error(`unexpected ${phase} error: ${String(error)}`);
};

/**
 * A job loop with shared slots and a runway, over a fake queue (`pending`: its due jobs; `released`: what
 * went back to it). Each handle waits until the test finishes it (`finish(id)`). `skew` moves the loop's
 * clock ahead without waiting.
 */
function harness(concurrency: number, runwayJobs: number, waitMs = 60_000) {
  const pending: Job[] = [];
  const released: string[] = [];
  const started: string[] = [];
  const claims: number[] = [];
  const finishers = new Map<string, () => void>();
  const slots = DeliverySlots.create();
  const time = { skew: 0 };
  const loop = createJobLoop<Job>({
    claim: async (limit) => {
      const jobs = pending.splice(0, limit);
      claims.push(jobs.length);
      return { jobs, moreDue: pending.length > 0 };
    },
    nextDueAt: async () => null,
    handle: (job) =>
      new Promise<void>((resolve) => {
        started.push(job.id);
        finishers.set(job.id, resolve);
      }),
    concurrency,
    batchDelayMs: 0,
    idleCheckMs: 60_000,
    onError: noErrors,
    clock: { ...systemClock, now: () => Date.now() + time.skew },
    slots,
    perKey: {
      keyOf: (job) => job.id,
      limit: 1,
      release: async (jobs) => {
        released.push(...jobs.map((job) => job.id));
        pending.push(...jobs);
      },
    },
    runway: { jobs: runwayJobs, waitMs },
  });
  /** What the main thread does: reserve slots for `ids`, "commit", hand them over. */
  const handOver = (...ids: string[]) => {
    expect(slots.reserve(ids.length)).toBe(ids.length);
    loop.adopt(ids.map((id) => ({ id })));
  };
  const finish = (id: string) => {
    const done = finishers.get(id);
    if (!done) throw new Error(`job ${id} has not started`);
    finishers.delete(id);
    done();
  };
  return { loop, slots, pending, released, started, claims, handOver, finish, time };
}

/** The loop has started and found the queue empty: the main thread may hand jobs over (nothing is wanted). */
async function started(h: ReturnType<typeof harness>) {
  h.loop.start();
  await expect
    .poll(
      () => {
        const got = h.slots.reserve(1);
        h.slots.give(got);
        return got;
      },
      { timeout: 5000 },
    )
    .toBe(1);
}

describe('job loop: the runway (handed-over jobs wait for a slot)', () => {
  it('gives its sender concurrency + runway slots; jobs beyond the free slots wait in order, with no claim', async () => {
    const h = harness(2, 4);
    await started(h);
    expect(h.slots.free).toBe(6);
    const claimsBefore = h.claims.length;
    h.handOver('a', 'b', 'c', 'd', 'e', 'f');
    expect(h.slots.free).toBe(0);
    expect(h.started).toEqual(['a', 'b']); // two slots; four wait
    // Each freed slot starts the next waiting job, oldest first.
    for (const [done, next] of [
      ['b', 'c'],
      ['a', 'd'],
      ['c', 'e'],
      ['d', 'f'],
    ] as const) {
      h.finish(done);
      await expect.poll(() => h.started.at(-1), { timeout: 5000 }).toBe(next);
    }
    h.finish('e');
    expect(h.started).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    h.finish('f');
    await expect.poll(() => h.slots.free, { timeout: 5000 }).toBe(6);
    // Every waiting job started from memory: no claim was made for them, none went back to the queue.
    expect(h.claims.slice(claimsBefore).filter((n) => n > 0)).toEqual([]);
    expect(h.released).toEqual([]);
    await h.loop.stop();
  });

  it('due work in the queue comes first: a freed slot goes to a due retry before a waiting job', async () => {
    const h = harness(1, 2);
    await started(h);
    h.handOver('a', 'b');
    expect(h.started).toEqual(['a']);
    h.pending.push({ id: 'retry' });
    h.loop.notifyDue(Date.now()); // a retry fell due: the loop knows of due work
    h.finish('a');
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['a', 'retry']);
    h.finish('retry');
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['a', 'retry', 'b']);
    h.finish('b');
    await expect.poll(() => h.slots.free, { timeout: 5000 }).toBe(3);
    await h.loop.stop();
  });

  it('a due retry is claimed into a free slot even when the sender holds every offered slot; claims hold none of them', async () => {
    const h = harness(2, 2);
    await started(h);
    // The accepting thread took all 4 offered slots for jobs still on their way (a commit in progress).
    expect(h.slots.reserve(4)).toBe(4);
    h.pending.push({ id: 'retry' });
    h.loop.notifyDue(Date.now());
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['retry']);
    // They arrive: one takes the other free slot, three wait.
    h.loop.adopt(['a', 'b', 'c', 'd'].map((id) => ({ id })));
    expect(h.started).toEqual(['retry', 'a']);
    for (const [done, next] of [
      ['retry', 'b'],
      ['a', 'c'],
      ['b', 'd'],
    ] as const) {
      h.finish(done);
      await expect.poll(() => h.started.at(-1), { timeout: 5000 }).toBe(next);
    }
    h.finish('c');
    h.finish('d');
    // Every offered slot back, and not one more: the claimed retry held none.
    await expect.poll(() => h.slots.free, { timeout: 5000 }).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.slots.free).toBe(4);
    await h.loop.stop();
  });

  it('with no room beyond its slots, a job handed over while a claimed job holds the slot waits for it: never more than concurrency run', async () => {
    const h = harness(1, 0);
    await started(h);
    h.pending.push({ id: 'queued' });
    h.loop.notify();
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['queued']);
    // The claimed job holds no shared slot: the sender may still take the one offered, and hand a job over.
    h.handOver('a');
    expect(h.slots.free).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.started).toEqual(['queued']); // it waits: the only slot is busy
    h.finish('queued');
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['queued', 'a']);
    h.finish('a');
    await expect.poll(() => h.slots.free, { timeout: 5000 }).toBe(1);
    expect(h.released).toEqual([]);
    await h.loop.stop();
  });

  it('a job that waited longer than waitMs goes back to the queue instead of starting, and is claimed from there', async () => {
    const h = harness(1, 2, 1_000);
    await started(h);
    h.handOver('a', 'b');
    expect(h.started).toEqual(['a']);
    h.time.skew = 1_500; // b has waited 1.5 s: its lease may not cover an attempt any more
    h.finish('a');
    await expect.poll(() => h.released, { timeout: 5000 }).toEqual(['b']);
    // Back in the queue, b is claimed like any queued job, under a new lease.
    await expect.poll(() => h.started, { timeout: 5000 }).toEqual(['a', 'b']);
    expect(h.claims.at(-1)).toBe(1);
    h.finish('b');
    await expect.poll(() => h.slots.free, { timeout: 5000 }).toBe(3);
    await h.loop.stop();
  });

  it('stop() gives the waiting jobs back to the queue and waits for the running one; later hand-overs are given back too', async () => {
    const h = harness(1, 3);
    await started(h);
    h.handOver('a', 'b', 'c');
    const stopped = h.loop.stop({ graceful: true });
    await expect.poll(() => h.released, { timeout: 5000 }).toEqual(['b', 'c']);
    h.loop.adopt([{ id: 'late' }]); // was on its way: not started while stopping
    await expect.poll(() => h.released, { timeout: 5000 }).toEqual(['b', 'c', 'late']);
    h.finish('a');
    await stopped;
    expect(h.started).toEqual(['a']);
  });

  it('refuses shared slots without a runway or a way to give jobs back, and a runway without shared slots', () => {
    const base = {
      claim: async () => [],
      nextDueAt: async () => null,
      handle: async () => undefined,
      concurrency: 2,
      onError: noErrors,
    };
    const perKey = { keyOf: (job: Job) => job.id, limit: 1, release: async () => undefined };
    const runway = { jobs: 4, waitMs: 1_000 };
    const refused = /shared slots come with a runway and perKey/;
    expect(() => createJobLoop<Job>({ ...base, runway, perKey })).toThrow(refused);
    expect(() => createJobLoop<Job>({ ...base, slots: DeliverySlots.create(), perKey })).toThrow(refused);
    expect(() => createJobLoop<Job>({ ...base, slots: DeliverySlots.create(), runway })).toThrow(refused);
    expect(() =>
      createJobLoop<Job>({
        ...base,
        slots: DeliverySlots.create(),
        runway: { jobs: 0, waitMs: 1_000 },
        perKey,
      }),
    ).not.toThrow();
  });
});
