import { describe, expect, it } from 'vitest';
import { type BackoffClock, SIGNAL_BACKOFF_MAX_MS, SignalBackoff } from './signal-backoff.js';

function fakeClock() {
  let now = 1_000;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: BackoffClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const timer = { at: now + ms, fn, id: nextId++ };
      timers.push(timer);
      return timer.id;
    },
    clearTimeout: (id) => {
      const index = timers.findIndex((t) => t.id === id);
      if (index >= 0) timers.splice(index, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const timer of [...timers].sort((a, b) => a.at - b.at)) {
      if (timer.at > now) continue;
      timers.splice(timers.indexOf(timer), 1);
      timer.fn();
    }
  };
  return { clock, advance, pending: () => timers.length };
}

describe('SignalBackoff', () => {
  it('wakes at once while claims get jobs', () => {
    const { clock } = fakeClock();
    let wakes = 0;
    const backoff = new SignalBackoff(() => wakes++, clock);
    backoff.heard();
    backoff.claimed(3);
    backoff.heard();
    expect(wakes).toBe(2);
  });

  it('after empty claims, defers a signal to the end of a doubling back-off, never dropping it', () => {
    const { clock, advance, pending } = fakeClock();
    let wakes = 0;
    const backoff = new SignalBackoff(() => wakes++, clock);
    backoff.claimed(0); // 1 ms
    backoff.claimed(0); // 2 ms
    backoff.claimed(0); // 4 ms
    backoff.heard();
    backoff.heard(); // the same deferred wake-up serves both
    expect(wakes).toBe(0);
    expect(pending()).toBe(1);
    advance(3);
    expect(wakes).toBe(0);
    advance(1);
    expect(wakes).toBe(1);
    advance(10);
    backoff.heard(); // the back-off has passed
    expect(wakes).toBe(2);
  });

  it('caps the back-off and ends it with a claim that gets jobs', () => {
    const { clock, advance } = fakeClock();
    let wakes = 0;
    const backoff = new SignalBackoff(() => wakes++, clock);
    for (let i = 0; i < 20; i++) backoff.claimed(0);
    backoff.heard();
    advance(SIGNAL_BACKOFF_MAX_MS - 1);
    expect(wakes).toBe(0);
    advance(1);
    expect(wakes).toBe(1);
    backoff.claimed(0);
    backoff.claimed(5);
    backoff.heard();
    expect(wakes).toBe(2);
  });

  it('close cancels a deferred wake-up', () => {
    const { clock, advance } = fakeClock();
    let wakes = 0;
    const backoff = new SignalBackoff(() => wakes++, clock);
    backoff.claimed(0);
    backoff.heard();
    backoff.close();
    advance(100);
    expect(wakes).toBe(0);
  });
});
