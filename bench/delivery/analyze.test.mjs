// The benchmark's analysis of what the receiver saw: pure functions over records, no processes.
import { describe, expect, it } from 'vitest';
import { analyzeKill, analyzeRetries } from './analyze.mjs';

/** A receiver record: [eventId, deliveryId, attempt, arrivedAt, answeredAt, status, bytes]. */
const rec = (eventId, attempt, arrivedAt, status) => [
  eventId,
  `dlv_${eventId}`,
  attempt,
  arrivedAt,
  arrivedAt + 1,
  status,
  400,
];
/** The records of the requests for one event, each `[attempt, arrivedAt, status]`, in order. */
const requests = (eventId, ...each) =>
  each.map(([attempt, arrivedAt, status]) => rec(eventId, attempt, arrivedAt, status));

const accepted = (...ids) => ({
  results: ids.map((eventId) => ({ eventId, host: 0, sentAt: 0, acceptedAt: 1 })),
});

describe('analyzeRetries', () => {
  it('counts retries on time inside their windows and every event that could succeed', () => {
    const records = [...requests('a', [1, 0, 500], [2, 1050, 500], [3, 3100, 200]), rec('b', 1, 10, 200)];
    const r = analyzeRetries(accepted('a', 'b'), records);
    expect(r.retries.map((s) => [s.count, s.inside])).toEqual([
      [1, 1],
      [1, 1],
      [0, 0],
    ]);
    expect(r.retriesInsidePercent).toBe(100);
    expect(r.events).toMatchObject({ succeeded: 2, lost: 0, succeededOfPossiblePercent: 100 });
    expect(r.attemptsPerEvent).toMatchObject({ max: 3, overCap: 0, repeatedAttemptNumbers: 0 });
    expect(r.attemptHeaderOutOfStep).toBe(0);
  });

  it('reports a retry sent again with the same attempt number after a lease as late, not as nothing', () => {
    // The host lost track of attempt 1's failure: the same attempt 1 comes back ~15 s later (its lease).
    const records = requests(
      'a',
      [1, 0, 500],
      [1, 15_001, 500],
      [1, 30_002, 500],
      [2, 45_003, 500],
      [3, 60_004, 200],
    );
    const r = analyzeRetries(accepted('a'), records);
    expect(r.retriesTotal).toBe(3);
    expect(r.retriesInside).toBe(0);
    expect(r.retries[0]).toMatchObject({ count: 1, late: 1 });
    expect(r.maxLatenessMs).toBeGreaterThan(10_000);
    // Five requests for one event: over the cap of 4, and the attempt headers out of step.
    expect(r.attemptsPerEvent).toMatchObject({ max: 5, overCap: 1, repeatedAttemptNumbers: 2 });
    expect(r.attemptHeaderOutOfStep).toBe(4);
    expect(r.unexpectedAttemptSequences).toBe(1); // the 5th request has no retry window
  });

  it('tells an event that never settled apart from one that used its 4 attempts', () => {
    const records = requests('a', [1, 0, 500], [2, 1050, 500], [3, 3100, 500], [4, 7200, 500]);
    const r = analyzeRetries(accepted('a', 'b'), records);
    expect(r.events).toMatchObject({ accepted: 2, succeeded: 0, exhausted: 1, lost: 1 });
    expect(r.events.succeededOfPossiblePercent).toBe(0);
  });
});

describe('analyzeKill', () => {
  it('counts accepted events that never reached the receiver, per host that accepted them', () => {
    const run = {
      results: [
        { eventId: 'a', host: 0, sentAt: 0, acceptedAt: 1 },
        { eventId: 'b', host: 1, sentAt: 0, acceptedAt: 1 },
        { eventId: 'c', host: 1, sentAt: 0, acceptedAt: 1 },
        { eventId: 'd', host: 1, error: 'ECONNREFUSED' }, // not accepted: not counted as lost
      ],
    };
    const killedAt = 1000;
    const records = [
      rec('a', 1, 5, 200),
      rec('b', 1, killedAt + 16_000, 200),
      rec('b', 1, killedAt + 16_100, 200),
    ];
    const k = analyzeKill(run, records, killedAt, 1);
    expect(k).toMatchObject({
      accepted: 3,
      postErrorCount: 1,
      acceptedByKilledHost: 2,
      neverArrived: 1,
      neverArrivedSample: ['c'],
      deliveredMoreThanOnce: 1,
      takenOver: 1, // b: accepted by the killed host, first attempted 16 s after the kill
      takeoverMaxMs: 16_000,
    });
    expect(k.perHost).toEqual([
      { host: 1, accepted: 1, verified: 1, neverArrived: 0 },
      { host: 2, accepted: 2, verified: 1, neverArrived: 1 },
    ]);
  });
});
