import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createJobLoop, type JobLoopErrorPhase } from './job-loop.js';

interface KeyedJob {
  id: number;
  key: string;
}

/**
 * A due-now queue of keyed jobs that takes at most each capped key's allowance (as storage does;
 * `honourShare: false` plays a queue that over-delivers) and takes released jobs back.
 */
function keyedQueue({ honourShare = true } = {}) {
  const pending: KeyedJob[] = [];
  const claims: Array<{ limit: number; exclude: string[]; got: number }> = [];
  const released: number[] = [];
  const dueChecks: string[][] = [];
  return {
    pending,
    claims,
    released,
    dueChecks,
    add(key: string, ...ids: number[]) {
      for (const id of ids) pending.push({ id, key });
    },
    async claim(limit: number, allowances?: ReadonlyMap<string, number>) {
      const left = new Map(allowances);
      const got: KeyedJob[] = [];
      for (const job of pending) {
        if (got.length >= limit) break;
        const room = left.get(job.key);
        if (room !== undefined && honourShare) {
          if (room <= 0) continue;
          left.set(job.key, room - 1);
        }
        got.push(job);
      }
      for (const job of got) pending.splice(pending.indexOf(job), 1);
      const exclude = [...(allowances ?? [])].filter(([, n]) => n === 0).map(([key]) => key);
      claims.push({ limit, exclude, got: got.length });
      return got;
    },
    async nextDueAt(exclude: readonly string[]) {
      dueChecks.push([...exclude]);
      return pending.some((job) => !exclude.includes(job.key)) ? Date.now() : null;
    },
    async release(jobs: KeyedJob[]) {
      for (const job of jobs) released.push(job.id);
      pending.unshift(...jobs); // due as they were: at the head again
    },
  };
}

/** Handles that take `ms(job)` and record, per key, how many ran at once and the order jobs finished. */
function keyedProbe(ms: (job: KeyedJob) => number) {
  const running = new Map<string, number>();
  const peak = new Map<string, number>();
  const done: KeyedJob[] = [];
  let total = 0;
  let totalPeak = 0;
  const handle = async (job: KeyedJob) => {
    const now = (running.get(job.key) ?? 0) + 1;
    running.set(job.key, now);
    peak.set(job.key, Math.max(peak.get(job.key) ?? 0, now));
    totalPeak = Math.max(totalPeak, ++total);
    await sleep(ms(job));
    running.set(job.key, (running.get(job.key) ?? 1) - 1);
    total--;
    done.push(job);
  };
  return {
    handle,
    done,
    peak,
    get totalPeak() {
      return totalPeak;
    },
  };
}

const noErrors = (error: unknown, phase: JobLoopErrorPhase) => {
  throw new Error(`unexpected ${phase} error: ${String(error)}`);
};

describe('createJobLoop with a fair share per key (perKey)', () => {
  it('attempts that hang give their slots back after slowMs: another key is served; the slow key is capped', async () => {
    const queue = keyedQueue();
    queue.add('dead', 1, 2, 3, 4, 5, 6, 7, 8);
    queue.add('live', 100);
    const jobs = keyedProbe((job) => (job.key === 'dead' ? 400 : 5));
    const started: number[] = [];
    const worker = createJobLoop<KeyedJob>({
      ...queue,
      concurrency: 4,
      onError: noErrors,
      handle: (job) => {
        started.push(job.id);
        return jobs.handle(job);
      },
      perKey: { keyOf: (job) => job.key, limit: 2, release: queue.release, slowMs: 50 },
    });
    const begin = Date.now();
    worker.start();
    await expect.poll(() => jobs.done.some((job) => job.key === 'live'), { timeout: 2000 }).toBe(true);
    const servedAfter = Date.now() - begin;
    // Served once the first four dead attempts lingered (50 ms), long before any of them ended (400 ms).
    expect(jobs.done.filter((job) => job.key === 'dead')).toEqual([]);
    expect(servedAfter).toBeLessThan(300);
    // The dead key is slow now, with 4 in flight over its limit of 2: nothing more of it starts.
    await sleep(150);
    expect(started.filter((id) => id < 100)).toEqual([1, 2, 3, 4]);
    expect(worker.slowKeys()).toEqual(['dead']); // the fair share keeps who is slow, nobody else
    await expect.poll(() => jobs.done.length, { timeout: 5000 }).toBe(9);
    await worker.stop();
    expect(new Set(jobs.done.map((job) => job.id)).size).toBe(9); // each job ran once
    expect(queue.claims.some((claim) => claim.exclude.includes('dead'))).toBe(true);
  });

  it('a key whose attempts end quickly is not capped: it may use every free slot', async () => {
    const queue = keyedQueue();
    queue.add('a', ...Array.from({ length: 24 }, (_, i) => i));
    const jobs = keyedProbe(() => 20);
    const worker = createJobLoop<KeyedJob>({
      ...queue,
      concurrency: 8,
      onError: noErrors,
      handle: jobs.handle,
      perKey: { keyOf: (job) => job.key, limit: 2, release: queue.release, slowMs: 500 },
    });
    worker.start();
    await expect.poll(() => jobs.done.length, { timeout: 3000 }).toBe(24);
    await worker.stop();
    expect(jobs.peak.get('a')).toBe(8);
    expect(queue.released).toEqual([]);
  });

  it('jobs a queue hands out beyond a slow key share go back to the queue and run when the key has room', async () => {
    const queue = keyedQueue({ honourShare: false });
    const jobs = keyedProbe((job) => (job.id === 1 ? 150 : 20));
    const marks: Array<[string, boolean]> = [];
    let free = 0;
    const slots = {
      give: (count: number) => {
        free += count;
      },
      want: () => {},
    };
    const worker = createJobLoop<KeyedJob>({
      ...queue,
      concurrency: 8,
      idleCheckMs: 60_000,
      onError: noErrors,
      handle: jobs.handle,
      slots,
      runway: { jobs: 0, waitMs: 60_000 },
      perKey: {
        keyOf: (job) => job.key,
        limit: 1,
        release: queue.release,
        slowMs: 30,
        onSlow: (key, slow) => marks.push([key, slow]),
      },
    });
    worker.start();
    free -= 1; // the sender takes a slot for the job it hands over
    worker.adopt([{ id: 1, key: 'a' }]);
    await expect.poll(() => marks, { timeout: 1000 }).toEqual([['a', true]]); // it lingered: 'a' is slow
    // 'a' is at its limit of 1: adopted and over-claimed jobs of it go back to the queue.
    free -= 1;
    worker.adopt([{ id: 2, key: 'a' }]);
    queue.add('a', 3, 4);
    worker.notify();
    await expect.poll(() => queue.released.length, { timeout: 1000 }).toBeGreaterThanOrEqual(3);
    await sleep(40);
    expect(jobs.done).toEqual([]); // none of them ran while 'a' was at its limit
    expect(queue.released.length).toBeLessThan(10); // and the worker did not spin on them
    await expect.poll(() => jobs.done.length, { timeout: 3000 }).toBe(4);
    await worker.stop();
    expect(jobs.done[0]?.id).toBe(1); // none of the others (20 ms each) ran beside it
    // One lingering attempt alone leaves no mark: once it ended, 'a' was no longer slow.
    expect(marks).toEqual([
      ['a', true],
      ['a', false],
    ]);
    expect(free).toBe(8); // every slot given back
  });

  it('does not spin while only a saturated key has due work: nextDueAt leaves it out', async () => {
    const queue = keyedQueue();
    queue.add('slow', 1, 2, 3, 4, 5, 6);
    const jobs = keyedProbe(() => 400);
    const worker = createJobLoop<KeyedJob>({
      ...queue,
      concurrency: 4,
      idleCheckMs: 60_000,
      onError: noErrors,
      handle: jobs.handle,
      perKey: { keyOf: (job) => job.key, limit: 1, release: queue.release, slowMs: 20 },
    });
    worker.start();
    await sleep(150); // four run (they lingered at 20 ms); the key is slow and over its limit
    const claimsWhileWaiting = queue.claims.length;
    expect(queue.dueChecks.at(-1)).toEqual(['slow']);
    await sleep(100);
    expect(queue.claims.length).toBe(claimsWhileWaiting); // no claims while nothing can be claimed
    await expect.poll(() => jobs.done.length, { timeout: 3000 }).toBe(6);
    await worker.stop();
  });

  it('rejects a bad per-key limit', () => {
    const queue = keyedQueue();
    const options = { ...queue, concurrency: 2, onError: noErrors, handle: async () => {} };
    for (const limit of [0, 1.5]) {
      expect(() =>
        createJobLoop<KeyedJob>({
          ...options,
          perKey: { keyOf: (j) => j.key, limit, release: queue.release },
        }),
      ).toThrow(/perKey.limit must be a positive integer/);
    }
  });
});
