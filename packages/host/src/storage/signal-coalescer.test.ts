import { describe, expect, it } from 'vitest';
import { type CoalescerClock, SignalCoalescer } from './signal-coalescer.js';
import type { QueueSignal } from './types.js';

/** A clock whose time only moves when the test says, and timers that fire as it moves. */
function fakeClock(): CoalescerClock & { advance(ms: number): void; pending(): number } {
  let now = 1_000;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 0;
  return {
    now: () => now,
    setTimeout(fn, ms) {
      next += 1;
      timers.set(next, { at: now + ms, fn });
      return next;
    },
    clearTimeout(timer) {
      timers.delete(timer as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}

function setup(windowMs = 5) {
  const clock = fakeClock();
  const sent: (QueueSignal & { at: number })[] = [];
  const coalescer = new SignalCoalescer(
    async (signal) => {
      sent.push({ ...signal, at: clock.now() });
    },
    windowMs,
    clock,
  );
  return { clock, sent, coalescer };
}

describe('SignalCoalescer', () => {
  it('lets a lone signal go out at once, with its transaction', () => {
    const { coalescer, sent } = setup();
    expect(coalescer.admit({ kind: 'deliver', dueAt: 1_000 })).toEqual({ send: true });
    expect(sent).toEqual([]); // sent by the caller, not late
  });

  it('merges the signals of a window into one, sent at its end with the earliest due time', () => {
    const { coalescer, sent, clock } = setup();
    expect(coalescer.admit({ kind: 'deliver', dueAt: 1_000 }).send).toBe(true);
    clock.advance(1);
    const a = coalescer.admit({ kind: 'deliver', dueAt: 2_500 });
    const b = coalescer.admit({ kind: 'deliver', dueAt: 2_100 });
    expect(a.send || b.send).toBe(false);
    if (!a.send) a.done();
    if (!b.send) b.done();
    expect(sent).toEqual([]); // the window (5 ms from the first) has not passed
    clock.advance(3);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toEqual([{ kind: 'deliver', dueAt: 2_100, at: 1_005 }]);
  });

  it('waits for every transaction that held a signal to end before sending it', () => {
    const { coalescer, sent, clock } = setup();
    coalescer.admit({ kind: 'deliver', dueAt: 1_000 });
    const held = coalescer.admit({ kind: 'deliver', dueAt: 1_001 });
    clock.advance(50);
    expect(sent).toEqual([]); // its transaction is still open: the work is not visible yet
    if (!held.send) held.done();
    expect(sent).toEqual([{ kind: 'deliver', dueAt: 1_001, at: 1_050 }]);
    if (!held.send) held.done(); // a second call changes nothing
    clock.advance(50);
    expect(sent).toHaveLength(1);
  });

  it('under a steady stream sends about one signal per window, never more than one a window after the first', () => {
    const { coalescer, sent, clock } = setup(5);
    let inTransaction = 0;
    for (let i = 0; i < 1_000; i++) {
      const admission = coalescer.admit({ kind: 'deliver', dueAt: clock.now() });
      if (admission.send) inTransaction += 1;
      else admission.done();
      clock.advance(1); // one transaction a millisecond
    }
    clock.advance(10);
    const all = inTransaction + sent.length;
    expect(all).toBeGreaterThanOrEqual(1_000 / 5 - 1);
    expect(all).toBeLessThanOrEqual(1_000 / 5 + 2);
    // Nothing held was forgotten: the last transactions' signal went out after the stream stopped.
    expect(sent.at(-1)?.at).toBeGreaterThanOrEqual(1_000 + 999);
  });

  it('keeps the kinds apart', () => {
    const { coalescer } = setup();
    expect(coalescer.admit({ kind: 'deliver', dueAt: 1_000 }).send).toBe(true);
    expect(coalescer.admit({ kind: 'invoke', dueAt: 1_000 }).send).toBe(true);
    expect(coalescer.admit({ kind: 'deliver', dueAt: 1_000 }).send).toBe(false);
  });

  it('sends nothing after close', () => {
    const { coalescer, sent, clock } = setup();
    coalescer.admit({ kind: 'deliver', dueAt: 1_000 });
    const held = coalescer.admit({ kind: 'deliver', dueAt: 1_000 });
    if (!held.send) held.done();
    expect(clock.pending()).toBe(1);
    coalescer.close();
    clock.advance(100);
    expect(sent).toEqual([]);
  });
});
