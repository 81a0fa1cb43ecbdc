import { describe, expect, it } from 'vitest';
import { createJobLoop } from './job-loop.js';
import type { JobLoopClock } from './job-loop-types.js';
import { BUSY_SHARE, STALL_ALLOWANCE, STALL_MS } from './slow-timer.js';

/**
 * A clock whose timers fire only when the test says, at the time the test says: `stall(ms)` moves time on
 * by `ms` without firing anything (a thread paused by its CPU quota), `fire()` then runs what fell due, late.
 */
function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let nextId = 1;
  const clock: JobLoopClock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    stall(ms: number) {
      now += ms;
    },
    /** Runs every timer due by now, earliest first (and those they arm that are due too). */
    fire() {
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) return;
        timers.delete(due[0]);
        due[1].callback();
      }
    },
    /** How long until the next timer. */
    nextIn() {
      return Math.min(...[...timers.values()].map((t) => t.at)) - now;
    },
    /** Moves time on by `ms`, firing each timer on time as it falls due. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = Math.min(end, ...[...timers.values()].map((t) => t.at));
        now = Math.max(now, next);
        this.fire();
        if (now >= end) return;
      }
    },
  };
}

/**
 * One job of key `k` whose attempt runs until `end()`; `slow` records what the fair share said of `k`;
 * `busy.share` is how busy the thread's event loop was since any mark.
 */
function oneAttempt() {
  const busy = { share: 0 };
  const time = manualClock();
  const slow: boolean[] = [];
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  let claimed = false;
  const loop = createJobLoop<{ id: number }>({
    clock: time.clock,
    concurrency: 2,
    idleCheckMs: 60_000,
    onError: (error) => {
      throw error;
    },
    claim: async () => {
      if (claimed) return [];
      claimed = true;
      return [{ id: 1 }];
    },
    nextDueAt: async () => null,
    handle: () => ended,
    perKey: {
      keyOf: () => 'k',
      limit: 1,
      release: async () => undefined,
      slowMs: 500,
      onSlow: (_key, isSlow) => slow.push(isSlow),
      busyMeter: { mark: () => null, busySince: () => busy.share },
    },
  });
  return { time, slow, end, loop, busy };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createJobLoop: an attempt timed on a thread that stalled or was too busy', () => {
  it('a slowMs timer that fires late (the thread was paused) gives the attempt the time lost: no slow key', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    expect(loop.inFlight).toBe(1);
    time.advance(400);
    // Paused 300 ms across the verdict: the answer may be waiting unread behind the timer.
    time.stall(400);
    time.fire();
    expect(slow).toEqual([]);
    // The answer is read in the same turn, before the time lost has passed again.
    end();
    await settle();
    time.advance(1_000);
    expect(slow).toEqual([]);
    await loop.stop();
  });

  it('a pause longer than slowMs (a process far over its CPU quota) is given back too', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    time.advance(400);
    time.stall(1_300); // the verdict 1 200 ms late
    time.fire();
    time.advance(1_199);
    expect(slow).toEqual([]);
    end();
    await settle();
    time.advance(5_000);
    expect(slow).toEqual([]);
    await loop.stop();
  });

  it('an attempt still running once it had the time lost is lingering: its key is slow', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    time.advance(400);
    time.stall(400); // 300 ms late
    time.fire();
    expect(slow).toEqual([]);
    time.advance(299);
    expect(slow).toEqual([]);
    time.advance(1); // 300 ms more, on time
    expect(slow).toEqual([true]);
    end();
    await loop.stop();
  });

  it('a timer late by no more than STALL_MS judges at once', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    time.advance(500 - 1);
    time.stall(1 + STALL_MS);
    time.fire();
    expect(slow).toEqual([true]);
    end();
    await loop.stop();
  });

  it('a thread that stalls at every verdict gives an attempt at most STALL_ALLOWANCE x slowMs more: a dead endpoint is still found', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    let waited = 0;
    let verdicts = 0;
    while (slow.length === 0 && waited < 20_000) {
      verdicts += 1;
      // Each timer fires 200 ms late.
      const before = time.clock.now();
      time.advance(time.nextIn() - 1);
      time.stall(201);
      time.fire();
      waited += time.clock.now() - before;
    }
    expect(slow).toEqual([true]);
    // slowMs, then the time lost until STALL_ALLOWANCE x slowMs (2 000 ms: ten times 200), and each
    // verdict's own 200 ms stall (eleven verdicts).
    expect(STALL_ALLOWANCE * 500).toBe(10 * 200);
    expect(verdicts).toBe(11);
    expect(waited).toBe(500 + STALL_ALLOWANCE * 500 + 11 * 200);
    end();
    await loop.stop();
  });

  it('a thread busy all along when the verdict falls due gives the attempt half of slowMs more', async () => {
    const { time, slow, end, loop, busy } = oneAttempt();
    loop.start();
    await settle();
    busy.share = BUSY_SHARE + 0.05;
    time.advance(500);
    expect(slow).toEqual([]);
    busy.share = 0.2; // the thread caught up: the next verdict is the endpoint's
    time.advance(249);
    expect(slow).toEqual([]);
    time.advance(1);
    expect(slow).toEqual([true]);
    end();
    await loop.stop();
  });

  it('a thread busy at every verdict still finds a dead endpoint, after at most slowMs more', async () => {
    // (A busy thread's time is a guess: it gets at most one slowMs, not STALL_ALLOWANCE of them.)
    const { time, slow, end, loop, busy } = oneAttempt();
    loop.start();
    await settle();
    busy.share = 1;
    time.advance(500 + 250 + 249);
    expect(slow).toEqual([]);
    time.advance(1);
    expect(slow).toEqual([true]);
    end();
    await loop.stop();
  });

  it('a thread busy no more than BUSY_SHARE judges at once', async () => {
    const { time, slow, end, loop, busy } = oneAttempt();
    loop.start();
    await settle();
    busy.share = BUSY_SHARE;
    time.advance(500);
    expect(slow).toEqual([true]);
    end();
    await loop.stop();
  });
});
