import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateSchedule } from './rate-limit.js';

describe('RateSchedule', () => {
  it('spaces one endpoint 1000/rate ms apart; keeps what falls within the hold, defers the rest to their turn', () => {
    const s = new RateSchedule();
    expect(s.plan('a', 10, ['1', '2', '3'], 1_000, 50)).toEqual([
      { send: 1000 },
      { defer: 1100 },
      { defer: 1200 },
    ]);
    // A new delivery queues behind them; the deferred ones keep their turns when they come back.
    expect(s.plan('a', 10, ['4'], 1_010, 50)).toEqual([{ defer: 1300 }]);
    expect(s.plan('a', 10, ['2'], 1_100, 50)).toEqual([{ send: 1100 }]);
    expect(s.plan('a', 10, ['3', '4'], 1_160, 50)).toEqual([{ send: 1200 }, { defer: 1300 }]);
    // Another endpoint is not affected.
    expect(s.plan('b', 10, ['5'], 1_160, 50)).toEqual([{ send: 1160 }]);
    // A fast rate keeps several within the hold.
    const fast = s.plan('c', 100, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 0, 50);
    expect(fast).toEqual([0, 10, 20, 30, 40, 50].map((send) => ({ send })).concat([{ defer: 60 } as never]));
  });

  it('never more than rate sends in any second, nothing dropped, each delivery sent once (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(
          fc.record({ gap: fc.integer({ min: 0, max: 300 }), fresh: fc.integer({ min: 0, max: 10 }) }),
          {
            maxLength: 40,
          },
        ),
        (rate, steps) => {
          const s = new RateSchedule();
          let now = 0;
          let id = 0;
          const waiting = new Map<string, number>(); // deferred: id -> due
          const sent: number[] = [];
          for (const { gap, fresh } of steps) {
            now += gap;
            // What a claim takes: the deferred ones now due, then new ones.
            const due = [...waiting].filter(([, at]) => at <= now).map(([k]) => k);
            const ids = [...due, ...Array.from({ length: fresh }, () => String(id++))];
            for (const k of due) waiting.delete(k);
            s.plan('e', rate, ids, now, 50).forEach((turn, i) => {
              if ('send' in turn) {
                expect(turn.send).toBeGreaterThanOrEqual(now);
                sent.push(turn.send);
              } else waiting.set(ids[i]!, turn.defer);
            });
          }
          expect(sent.length + waiting.size).toBe(id);
          sent.sort((a, b) => a - b);
          for (let i = rate; i < sent.length; i++)
            expect(sent[i]! - sent[i - rate]!).toBeGreaterThanOrEqual(999);
        },
      ),
    );
  });

  it('admit: never more than rate requests leave in any second, whatever the planned times (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 120 }),
        (rate, wanted) => {
          const s = new RateSchedule();
          const left: number[] = [];
          // Each request asks at its wanted time, then again after the wait it is told, until admitted.
          for (const at of [...wanted].sort((a, b) => a - b)) {
            let now = Math.max(at, left.at(-1) ?? 0);
            for (let wait = s.admit('e', rate, now); wait > 0; wait = s.admit('e', rate, now)) now += wait;
            left.push(now);
          }
          for (let i = rate; i < left.length; i++)
            expect(left[i]! - left[i - rate]!).toBeGreaterThanOrEqual(1000);
        },
      ),
    );
  });
});
