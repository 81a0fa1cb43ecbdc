import { describe, expect, it } from 'vitest';
import type { JobLoopClock } from './job-loop-types.js';
import { createJobLoop, STALL_MS } from './job-loop.js';

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
    /** Moves time on to the next timer (or by `cap`), firing what falls due. */
    advance(cap: number) {
      const at = Math.min(now + cap, ...[...timers.values()].map((t) => t.at));
      now = Math.max(now, at);
      this.fire();
    },
  };
}

/** One job of key `k` whose attempt runs until `end()`; `slow` records what the fair share said of `k`. */
function oneAttempt() {
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
    },
  });
  return { time, slow, end, loop, ended };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createJobLoop: an attempt timed on a thread that stalled', () => {
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

  it('a thread that stalls at every verdict gives an attempt at most slowMs more: a dead endpoint is still found', async () => {
    const { time, slow, end, loop } = oneAttempt();
    loop.start();
    await settle();
    let waited = 0;
    while (slow.length === 0 && waited < 10_000) {
      // Each timer fires 200 ms late.
      const before = time.clock.now();
      time.advance(10_000);
      time.stall(200);
      time.fire();
      waited += time.clock.now() - before;
    }
    expect(slow).toEqual([true]);
    // 500 + 200 (first verdict) + 200 + 100 (the rest of the slowMs allowed) + the stalls of the re-armed timers.
    expect(waited).toBeLessThanOrEqual(500 + 500 + 3 * 200);
    end();
    await loop.stop();
  });
});
