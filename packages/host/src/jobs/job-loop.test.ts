import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DeliverySlots } from '../delivery/host/slots.js';
import { createJobLoop, type JobLoopErrorPhase } from './job-loop.js';

/** A tiny due-time queue (the real one lives in storage/ and is tested there). */
function timedQueue() {
  const pending: Array<{ id: number; dueAt: number }> = [];
  const claims: Array<{ at: number; limit: number; got: number }> = [];
  return {
    claims,
    add(id: number, dueAt = Date.now()) {
      pending.push({ id, dueAt });
    },
    async claim(limit: number) {
      const now = Date.now();
      const due = pending.filter((job) => job.dueAt <= now).slice(0, limit);
      for (const job of due) pending.splice(pending.indexOf(job), 1);
      claims.push({ at: now, limit, got: due.length });
      return due;
    },
    async nextDueAt() {
      return pending.length === 0 ? null : Math.min(...pending.map((job) => job.dueAt));
    },
  };
}

/** A handle that sleeps `ms(job)` and records the jobs it finished and the most it ran at once. */
function probe(ms: (job: { id: number }) => number) {
  let running = 0;
  const state = { done: [] as number[], peak: 0 };
  const handle = async (job: { id: number }) => {
    running++;
    state.peak = Math.max(state.peak, running);
    await sleep(ms(job));
    running--;
    state.done.push(job.id);
  };
  return Object.assign(state, { handle });
}

/** Runs `body` and returns the longest event-loop stall (ms) seen meanwhile: a busy machine's share. */
async function withStall(body: () => Promise<void>): Promise<number> {
  const monitor = monitorEventLoopDelay({ resolution: 5 });
  monitor.enable();
  await body();
  monitor.disable();
  return monitor.max / 1e6;
}

/** A handle that records each job it ran and when. */
function arrivals() {
  const handled: Array<{ id: number; at: number }> = [];
  const handle = async (job: { id: number }) => {
    handled.push({ id: job.id, at: Date.now() });
  };
  return { handled, handle };
}

/** Starts `worker`, waits (2 s at most) until `handled()` reaches `count`, stops it: the stall seen meanwhile. */
async function runUntilHandled(
  worker: { start(): void; stop(): Promise<void> },
  handled: () => number,
  count: number,
): Promise<number> {
  const stall = await withStall(async () => {
    worker.start();
    await expect.poll(handled, { timeout: 2000 }).toBe(count);
  });
  await worker.stop();
  return stall;
}

const noErrors = (error: unknown, phase: JobLoopErrorPhase) => {
  throw new Error(`unexpected ${phase} error: ${String(error)}`);
};

/** The idle check out of the way (60 s), so that only timers and signals wake the loop; any error fails. */
const noIdleCheck = { idleCheckMs: 60_000, onError: noErrors };

/** A loop over `queue`, `concurrency` jobs at a time, with no idle checks and no errors expected. */
const loopOver = (
  queue: ReturnType<typeof timedQueue>,
  concurrency: number,
  handle: (job: { id: number }) => Promise<void>,
) => createJobLoop({ ...queue, concurrency, ...noIdleCheck, handle });

describe('createJobLoop', () => {
  it('never runs more than `concurrency` handles and claims only free slots', async () => {
    const queue = timedQueue();
    for (let id = 0; id < 7; id++) queue.add(id);
    const jobs = probe(() => 40);
    const worker = createJobLoop({ ...queue, concurrency: 3, onError: noErrors, handle: jobs.handle });
    worker.start();
    await expect.poll(() => jobs.done.length, { timeout: 2000 }).toBe(7);
    await worker.stop();
    expect(jobs.peak).toBe(3);
    expect(queue.claims[0]).toMatchObject({ limit: 3, got: 3 });
    expect(Math.max(...queue.claims.map((c) => c.limit))).toBe(3);
    expect(queue.claims.every((c) => c.got <= c.limit)).toBe(true);
  });

  it('claims in batches: not one claim per finished job while at least half the slots are busy', async () => {
    const queue = timedQueue();
    for (let id = 0; id < 200; id++) queue.add(id);
    const jobs = probe((job) => 1 + (job.id % 4));
    const worker = loopOver(queue, 8, jobs.handle);
    worker.start();
    await expect.poll(() => jobs.done.length, { timeout: 5000 }).toBe(200);
    await worker.stop();
    expect(jobs.peak).toBeLessThanOrEqual(8);
    expect(queue.claims.every((c) => c.got <= c.limit)).toBe(true);
    // One claim per finished job would be ~200; batches of >= 2 on average.
    expect(queue.claims.filter((c) => c.got > 0).length).toBeLessThanOrEqual(100);
    expect(queue.claims.length).toBeLessThanOrEqual(110);
  });

  it('with half the slots busy, notify() still claims within batchDelayMs', async () => {
    const queue = timedQueue();
    queue.add(1);
    queue.add(2);
    const handledAt = new Map<number, number>();
    const worker = createJobLoop({
      ...queue,
      concurrency: 4,
      idleCheckMs: 60_000,
      batchDelayMs: 10,
      onError: noErrors,
      handle: async (job) => {
        handledAt.set(job.id, Date.now());
        if (job.id <= 2) await sleep(400);
      },
    });
    worker.start();
    await expect.poll(() => worker.inFlight).toBe(2);
    const enqueuedAt = Date.now();
    const stall = await withStall(async () => {
      queue.add(3);
      worker.notify();
      await expect.poll(() => handledAt.has(3), { timeout: 1000, interval: 2 }).toBe(true);
    });
    expect(handledAt.get(3)! - enqueuedAt).toBeGreaterThanOrEqual(5); // batched, not at once
    expect(handledAt.get(3)! - enqueuedAt).toBeLessThan(10 + 30 + stall);
    await worker.stop();
  });

  it('wakes at the exact due time with one timer, not by polling', async () => {
    const queue = timedQueue();
    const start = Date.now();
    queue.add(1, start + 300);
    const { handled, handle } = arrivals();
    const worker = loopOver(queue, 2, handle);
    const stall = await runUntilHandled(worker, () => handled.length, 1);
    expect(handled[0]!.at - start).toBeGreaterThanOrEqual(300);
    expect(handled[0]!.at - start).toBeLessThan(330 + stall);
    // One claim at start (nothing due), one at the due time (allowing one early-wake re-arm):
    // a polling loop would have claimed many times in 300 ms.
    const upToDue = queue.claims.slice(0, queue.claims.findIndex((c) => c.got === 1) + 1);
    expect(upToDue.length).toBeGreaterThanOrEqual(2);
    expect(upToDue.length).toBeLessThanOrEqual(3);
  });

  it('a job rescheduled by a handle is picked up at its due time via notifyDue(), not the idle check', async () => {
    const queue = timedQueue();
    queue.add(1);
    const handledAt: number[] = [];
    let dueAt = 0;
    const worker = createJobLoop({
      ...queue,
      concurrency: 4,
      ...noIdleCheck,
      handle: async (job) => {
        handledAt.push(Date.now());
        if (handledAt.length === 1) {
          dueAt = Date.now() + 200;
          queue.add(job.id, dueAt);
          worker.notifyDue(dueAt);
        }
      },
    });
    const stall = await runUntilHandled(worker, () => handledAt.length, 2);
    expect(handledAt[1]!).toBeGreaterThanOrEqual(dueAt);
    // Missing the notifyDue() would mean waiting for the 60 s idle check; 150 ms leaves room for a loaded CI.
    expect(handledAt[1]! - dueAt).toBeLessThan(150 + stall);
  });

  it('a notifyDue() that lands while the cycle reads the next due time is not overwritten by that read', async () => {
    // The read answers what was committed when it began (the later job); the retry announced during it
    // is earlier and must keep its timer.
    const queue = timedQueue();
    const start = Date.now();
    queue.add(1, start + 400);
    const { handled, handle } = arrivals();
    let retryDue = 0;
    let reads = 0;
    const worker = createJobLoop({
      claim: queue.claim,
      nextDueAt: async () => {
        const answer = await queue.nextDueAt();
        reads++;
        if (reads === 1) {
          retryDue = Date.now() + 100;
          queue.add(2, retryDue);
          worker.notifyDue(retryDue);
        }
        await sleep(30);
        return answer;
      },
      concurrency: 4,
      ...noIdleCheck,
      handle,
    });
    const stall = await runUntilHandled(worker, () => handled.length, 2);
    expect(handled[0]?.id).toBe(2);
    expect(handled[0]!.at).toBeGreaterThanOrEqual(retryDue);
    // Overwritten by the read, the retry would wait for job 1 (300 ms later); 150 ms leaves room for a loaded CI.
    expect(handled[0]!.at - retryDue).toBeLessThan(150 + stall);
  });

  it('a steady stream of new jobs (each due just after a claim) does not push a due retry back', async () => {
    // Every claim is followed by a new job due at once, as when events keep arriving: the next due time
    // read after the claim is always "now". That is progress, not a job that could not be claimed, so it
    // must not grow the back-off that guards against an unclaimable queue (1, 2, 4 ... ms up to the idle
    // check), which would leave the retry due at +300 ms hundreds of ms late.
    const queue = timedQueue();
    const start = Date.now();
    const retryDue = start + 300;
    queue.add(0, retryDue);
    let next = 1;
    const streaming = { on: true };
    const { handled, handle } = arrivals();
    const worker = createJobLoop({
      claim: async (limit) => {
        const jobs = await queue.claim(limit);
        if (streaming.on) queue.add(next++); // arrives right after this claim
        return jobs;
      },
      nextDueAt: queue.nextDueAt,
      concurrency: 8,
      ...noIdleCheck,
      handle,
    });
    const stall = await withStall(async () => {
      worker.start();
      await expect.poll(() => handled.some((h) => h.id === 0), { timeout: 3000 }).toBe(true);
    });
    streaming.on = false;
    await worker.stop();
    const retry = handled.find((h) => h.id === 0)!;
    expect(retry.at).toBeGreaterThanOrEqual(retryDue);
    expect(retry.at - retryDue).toBeLessThan(30 + stall);
    expect(handled.length).toBeGreaterThan(10); // the stream was being served meanwhile
  });

  it('notify() claims new work at once', async () => {
    const queue = timedQueue();
    const { handled, handle } = arrivals();
    const worker = loopOver(queue, 1, handle);
    worker.start();
    await sleep(50);
    const enqueuedAt = Date.now();
    const stall = await withStall(async () => {
      queue.add(1);
      worker.notify();
      await expect.poll(() => handled.length, { timeout: 1000, interval: 5 }).toBe(1);
    });
    expect(handled[0]!.at - enqueuedAt).toBeLessThan(30 + stall);
    await worker.stop();
  });

  it('the idle check picks up work enqueued without notify()', async () => {
    const queue = timedQueue();
    let handled = 0;
    const worker = createJobLoop({
      ...queue,
      concurrency: 1,
      idleCheckMs: 100,
      onError: noErrors,
      handle: async () => {
        handled++;
      },
    });
    worker.start();
    await sleep(20);
    queue.add(1);
    await expect.poll(() => handled, { timeout: 1000, interval: 10 }).toBe(1);
    await worker.stop();
  });

  it('a loop that keeps claiming makes no idle check; one that stops gets it a period after its last claim', async () => {
    const queue = timedQueue();
    let dueReads = 0;
    const done = arrivals();
    const idleCheckMs = 150;
    const nextDueAt = async () => {
      dueReads++;
      return queue.nextDueAt();
    };
    const worker = createJobLoop({
      ...queue,
      nextDueAt,
      concurrency: 1,
      idleCheckMs,
      onError: noErrors,
      handle: done.handle,
    });
    worker.start();
    await sleep(20); // the first cycle's claim and next-due read
    dueReads = 0;
    queue.claims.length = 0;
    // Work every 20 ms for 1.2 s: 8 idle checks on a clock of their own, each a claim and a next-due read.
    for (let id = 0; id < 60; id++) {
      queue.add(id);
      worker.notify();
      await sleep(20);
    }
    await expect.poll(() => done.handled.length, { timeout: 2000 }).toBe(60);
    const startsAt = queue.claims.map((c) => c.at);
    // An idle check may run only after a gap of idleCheckMs without a claim (a stalled machine's share); it
    // reads the next due time once, twice if work lands between its claim and its read.
    const gaps = startsAt.slice(1).filter((at, i) => at - (startsAt[i] as number) >= idleCheckMs).length;
    expect(dueReads).toBeLessThanOrEqual(2 * gaps);
    // Quiet now: work queued without notify() is found by the idle check, a period after the last claim.
    const lastClaim = startsAt[startsAt.length - 1] as number;
    queue.add(99);
    await expect.poll(() => done.handled.some((h) => h.id === 99), { timeout: 2000, interval: 5 }).toBe(true);
    const found = queue.claims.find((c) => c.got > 0 && c.at > lastClaim);
    expect(found!.at - lastClaim).toBeGreaterThanOrEqual(idleCheckMs - 1);
    await worker.stop();
  });

  it('an idle check put off by claims still wakes the loop at a due time it read', async () => {
    const queue = timedQueue();
    const done = arrivals();
    const worker = createJobLoop({
      ...queue,
      concurrency: 4,
      idleCheckMs: 200,
      onError: noErrors,
      handle: done.handle,
    });
    const dueAt = Date.now() + 500;
    queue.add(1, dueAt); // read at start: due in 500 ms, past the first idle check
    const stall = await withStall(async () => {
      worker.start();
      // A claim every 150 ms puts each idle check off; none lands on the due time (at 450 and 600 ms).
      for (let i = 0; i < 5 && done.handled.length === 0; i++) {
        await sleep(150);
        worker.notify();
      }
      await expect.poll(() => done.handled.length, { timeout: 2000 }).toBe(1);
    });
    await worker.stop();
    expect(done.handled[0]!.at - dueAt).toBeLessThan(40 + stall);
  });

  it('graceful stop waits for in-flight handles and claims nothing more', async () => {
    const queue = timedQueue();
    queue.add(1);
    queue.add(2);
    queue.add(3);
    const finished: number[] = [];
    const worker = createJobLoop({
      ...queue,
      concurrency: 2,
      onError: noErrors,
      handle: async (job) => {
        await sleep(200);
        finished.push(job.id);
      },
    });
    worker.start();
    await expect.poll(() => worker.inFlight).toBe(2);
    const stopping = worker.stop({ graceful: true });
    expect(worker.state).toBe('stopping');
    await stopping;
    expect(finished.sort()).toEqual([1, 2]);
    expect(worker.inFlight).toBe(0);
    expect(worker.state).toBe('stopped');
    const claimsAtStop = queue.claims.length;
    await sleep(50);
    expect(queue.claims.length).toBe(claimsAtStop);
    expect(await queue.nextDueAt()).not.toBeNull(); // job 3 stays queued
  });

  it('reports claim and handle errors and keeps going', async () => {
    const queue = timedQueue();
    queue.add(1);
    queue.add(2);
    const errors: Array<[string, JobLoopErrorPhase]> = [];
    let claimCalls = 0;
    const handled: number[] = [];
    const worker = createJobLoop({
      nextDueAt: queue.nextDueAt,
      claim: async (limit) => {
        if (++claimCalls === 1) throw new Error('database down');
        return queue.claim(limit);
      },
      concurrency: 2,
      idleCheckMs: 50,
      onError: (error, phase) => errors.push([(error as Error).message, phase]),
      handle: async (job) => {
        handled.push(job.id);
        if (job.id === 1) throw new Error('boom');
      },
    });
    worker.start();
    await expect.poll(() => handled.length, { timeout: 1000 }).toBe(2);
    await worker.stop();
    expect(errors).toEqual([
      ['database down', 'claim'],
      ['boom', 'handle'],
    ]);
  });

  it('rejects a bad concurrency', () => {
    expect(() =>
      createJobLoop({ ...timedQueue(), handle: async () => {}, concurrency: 0, onError: noErrors }),
    ).toThrow(/concurrency must be a positive integer/);
  });
});

describe('createJobLoop with shared slots (jobs handed over by another thread)', () => {
  /** Shared slots come with a runway (here with no room beyond the concurrency) and a way to give jobs back. */
  const handedOver = (released: number[] = []) => ({
    slots: DeliverySlots.create(),
    runway: { jobs: 0, waitMs: 60_000 },
    perKey: {
      keyOf: (job: { id: number }) => String(job.id),
      limit: 1,
      release: async (jobs: { id: number }[]) => {
        released.push(...jobs.map((job) => job.id));
      },
    },
  });

  it('claims the free slots themselves, runs adopted jobs without a claim once a slot frees, gives every shared slot back', async () => {
    const released: number[] = [];
    const shared = handedOver(released);
    const { slots } = shared;
    const queue = timedQueue();
    const jobs = probe(() => 30);
    const { done } = jobs;
    const worker = createJobLoop<{ id: number }>({
      ...queue,
      ...shared,
      concurrency: 4,
      onError: noErrors,
      handle: jobs.handle,
    });
    worker.start();
    await expect.poll(() => slots.free).toBe(4); // start() gave its concurrency; nothing was due
    await expect.poll(() => queue.claims.length).toBeGreaterThan(0);
    // Another thread reserves 3 slots for 3 jobs it leased (on their way); 5 more wait in the queue.
    slots.want(false);
    expect(slots.reserve(3)).toBe(3);
    for (let id = 10; id < 15; id++) queue.add(id);
    const claimsBefore = queue.claims.length;
    worker.notify();
    // The next claim takes the 4 free slots: the sender's reservations hold none of them.
    await expect.poll(() => queue.claims[claimsBefore]?.limit, { timeout: 5000 }).toBe(4);
    worker.adopt([{ id: 1 }, { id: 2 }, { id: 3 }]); // they wait for slots, then run with no claim
    await expect.poll(() => done.length, { timeout: 5000 }).toBe(8);
    await worker.stop();
    expect(jobs.peak).toBeLessThanOrEqual(4);
    expect(done.filter((id) => id < 10).sort()).toEqual([1, 2, 3]);
    expect(queue.claims.every((c) => c.limit <= 4)).toBe(true);
    expect(slots.free).toBe(4);
    expect(released).toEqual([]);
  });

  it('asks for new jobs to be queued only while due work waits for slots: not for work the free slots take', async () => {
    const shared = handedOver();
    const { slots } = shared;
    const wants: boolean[] = [];
    const recording = {
      give: (count: number) => slots.give(count),
      want: (wanted: boolean) => {
        wants.push(wanted);
        slots.want(wanted);
      },
    };
    const queue = timedQueue();
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const worker = createJobLoop<{ id: number }>({
      ...queue,
      ...shared,
      slots: recording,
      concurrency: 4,
      onError: noErrors,
      handle: () => gate,
    });
    worker.start();
    await expect.poll(() => wants.at(-1), { timeout: 5000 }).toBe(false); // the first claim drained the queue
    // A retry falls due while slots are free: the claim takes it, and new jobs are still handed over.
    const before = wants.length;
    queue.add(1);
    worker.notify();
    await expect.poll(() => queue.claims.at(-1)?.got, { timeout: 5000 }).toBe(1);
    expect(wants.slice(before)).not.toContain(true);
    expect(slots.reserve(1)).toBe(1);
    slots.give(1);
    // More due than the free slots (3): the claim comes back full; new jobs queue behind the rest.
    for (let id = 2; id <= 6; id++) queue.add(id);
    worker.notify();
    await expect.poll(() => wants.at(-1), { timeout: 5000 }).toBe(true);
    expect(queue.claims.at(-1)).toMatchObject({ limit: 3, got: 3 });
    expect(slots.reserve(1)).toBe(0);
    // Every slot busy and work still due: still wanted, however often the loop is woken.
    worker.notify();
    await sleep(20);
    expect(wants.at(-1)).toBe(true);
    // The slots free up; a claim drains the queue: the other thread may hand over again.
    open();
    await expect.poll(() => queue.claims.reduce((sum, c) => sum + c.got, 0), { timeout: 5000 }).toBe(6);
    await expect.poll(() => wants.at(-1), { timeout: 5000 }).toBe(false);
    expect(slots.reserve(1)).toBe(1);
    slots.give(1);
    await worker.stop();
    expect(slots.reserve(1)).toBe(0); // stopped: nothing more is handed over
  });

  it('a stopped worker runs no adopted job and gives its slots back (the lease brings the job back)', async () => {
    const shared = handedOver();
    const { slots } = shared;
    const ran: number[] = [];
    const worker = createJobLoop<{ id: number }>({
      ...timedQueue(),
      ...shared,
      concurrency: 2,
      onError: noErrors,
      handle: async (job) => {
        ran.push(job.id);
      },
    });
    worker.start();
    await expect.poll(() => slots.free).toBe(2);
    slots.want(false);
    expect(slots.reserve(2)).toBe(2);
    await worker.stop();
    worker.adopt([{ id: 1 }, { id: 2 }]);
    expect(ran).toEqual([]);
    expect(slots.free).toBe(2);
    // Started again: its slots are the same two, not two more.
    worker.start();
    await expect.poll(() => slots.free).toBe(2);
    await sleep(50);
    expect(slots.free).toBe(2);
    await worker.stop();
  });
});

describe('createJobLoop: announced work another process holds', () => {
  it('a claim that misses work announced as due (locked elsewhere) looks again soon, not at the idle check', async () => {
    const queue = timedQueue();
    let locked = true; // the job is due, but another process's transaction holds its row (SKIP LOCKED)
    const claim = async (limit: number) => (locked ? [] : queue.claim(limit));
    const jobs = probe(() => 1);
    const worker = createJobLoop({
      claim,
      nextDueAt: () => queue.nextDueAt(),
      handle: jobs.handle,
      concurrency: 4,
      ...noIdleCheck,
    });
    worker.start();
    await sleep(50); // the start-up cycle found nothing due and armed the idle check
    const due = Date.now();
    queue.add(1, due);
    worker.notifyDue(due); // a queue signal: another host queued it, due now
    await sleep(30);
    locked = false; // the other transaction ends
    const deadline = Date.now() + 5_000;
    while (jobs.done.length === 0 && Date.now() < deadline) await sleep(10);
    await worker.stop();
    // Found by the bounded back-off (1, 2, 4 ... ms), long before the 60 s idle check.
    expect(jobs.done).toEqual([1]);
    expect(Date.now() - due).toBeLessThan(5_000);
  });

  it('a signal is answered by one read of the next due time, not by one read per short claim after it', async () => {
    // Another host's signal, then local wake-ups (finishing handles, hand-overs) whose claims come back
    // short: until the loop's timer next fired, each read the next due time again, as if the signal were
    // still unanswered.
    const queue = timedQueue();
    let reads = 0;
    const jobs = probe(() => 1);
    const worker = createJobLoop({
      claim: (limit) => queue.claim(limit),
      nextDueAt: async () => {
        reads += 1;
        return queue.nextDueAt();
      },
      handle: jobs.handle,
      concurrency: 8,
      ...noIdleCheck,
    });
    worker.start();
    await sleep(50);
    const before = reads;
    queue.add(1);
    worker.notifyDue(Date.now()); // the signal
    await sleep(30);
    for (let i = 2; i < 12; i++) {
      queue.add(i);
      worker.notify(); // local work: claimed at once, the claim short of the free slots
      await sleep(10);
    }
    await worker.stop();
    expect(jobs.done).toHaveLength(11);
    expect(queue.claims.length - 1).toBeGreaterThanOrEqual(11); // every wake-up claimed
    expect(reads - before).toBe(1); // the signal's one read (2 before the change)
  });
});
