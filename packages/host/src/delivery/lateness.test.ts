import { describe, expect, it } from 'vitest';
import { systemClock } from '../jobs/job-loop-types.js';
import type { DeliveryQueue } from './engine.js';
import { createDeliveryEngine, type DeliveryJob } from './engine.js';
import { diagnoseRetry, LATE_RETRY_MS, type LateRetry } from './lateness.js';

describe('diagnoseRetry', () => {
  const on = { dueAt: 1000, timerLateMs: 0, claimStartedAt: 1000, claimedAt: 1002, sendingAt: 1003 };

  it('says nothing of a retry that left within 100 ms of its due time', () => {
    expect(diagnoseRetry(on)).toBeNull();
    expect(diagnoseRetry({ ...on, sendingAt: 1000 + LATE_RETRY_MS })).toBeNull();
  });

  it('names the largest part: event loop, waiting for a slot, the claim, or preparing', () => {
    expect(
      diagnoseRetry({ ...on, timerLateMs: 300, claimStartedAt: 1300, claimedAt: 1302, sendingAt: 1303 }),
    ).toMatchObject({ lateMs: 303, cause: 'event_loop_delay', parts: { event_loop_delay: 300 } });
    expect(diagnoseRetry({ ...on, claimStartedAt: 1400, claimedAt: 1402, sendingAt: 1403 })).toMatchObject({
      cause: 'waiting_for_slot',
      parts: { waiting_for_slot: 400, event_loop_delay: 0 },
    });
    expect(diagnoseRetry({ ...on, claimedAt: 1500, sendingAt: 1501 })).toMatchObject({
      lateMs: 501,
      cause: 'claim',
    });
    expect(diagnoseRetry({ ...on, sendingAt: 1200 })).toMatchObject({
      cause: 'preparing',
      parts: { preparing: 198 },
    });
  });

  it('names the host being down for a retry due before its engine started, and splits the rest as usual', () => {
    // due at 1000, the host (re)started at 6000, claimed at 6010 after a 10 ms wait for a slot
    const late = diagnoseRetry({
      ...on,
      claimStartedAt: 6010,
      claimedAt: 6012,
      sendingAt: 6013,
      engineStartedAt: 6000,
    });
    expect(late).toMatchObject({
      lateMs: 5013,
      cause: 'host_not_running',
      parts: { host_not_running: 5000, waiting_for_slot: 10, claim: 2, preparing: 1 },
    });
    // started before the due time: no share for it
    expect(
      diagnoseRetry({ ...on, claimStartedAt: 1400, claimedAt: 1402, sendingAt: 1403, engineStartedAt: 500 }),
    ).toMatchObject({ cause: 'waiting_for_slot', parts: { host_not_running: 0 } });
  });

  it('takes the bound it is given: a first retry past its 50 ms of arrival slack is late', () => {
    expect(diagnoseRetry({ ...on, sendingAt: 1070 })).toBeNull(); // within the default 100 ms
    expect(diagnoseRetry({ ...on, sendingAt: 1070 }, 50)).toMatchObject({ lateMs: 70, cause: 'preparing' });
    expect(diagnoseRetry({ ...on, sendingAt: 1050 }, 50)).toBeNull();
  });

  it('a claim that began before the due time counts only from the due time', () => {
    const late = diagnoseRetry({ ...on, claimStartedAt: 900, claimedAt: 1300, sendingAt: 1301 });
    expect(late?.parts.claim).toBe(300);
  });
});

type Job = DeliveryJob & { delay: number };

/** An engine whose one claim hands out `jobs` after `claimMs`, with a sender that answers 200 at once. */
async function runOnce(jobs: Job[], claimMs = 0): Promise<Array<{ id: string; late: LateRetry }>> {
  const late: Array<{ id: string; late: LateRetry }> = [];
  let pending = [...jobs];
  let finished = 0;
  const queue: DeliveryQueue<Job> = {
    async claim(limit) {
      if (claimMs) await new Promise((r) => setTimeout(r, claimMs));
      const now = Date.now();
      const taken = pending.slice(0, limit).map((job) => ({ ...job, dueAt: now - job.delay }));
      pending = pending.slice(limit);
      return taken;
    },
    async finish() {
      finished += 1;
    },
    nextDueAt: async () => null,
  };
  // an engine that has run for a second already, so the jobs fell due while it ran (not before it started)
  let first = true;
  const clock = {
    ...systemClock,
    now: () => {
      const now = Date.now();
      if (!first) return now;
      first = false;
      return now - 1000;
    },
  };
  const engine = createDeliveryEngine<Job>({
    queue,
    clock,
    resolveTarget: () => ({ url: 'http://127.0.0.1:9/hook', secrets: ['whsec_x'] }),
    dispatcher: undefined as never,
    userAgentVersion: 'test',
    send: async () => ({ startedAt: Date.now(), durationMs: 1, statusCode: 200 }),
    onLateRetry: (job, info) => late.push({ id: job.id, late: info }),
  });
  engine.start();
  const deadline = Date.now() + 5_000;
  while (finished < jobs.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  await engine.stop();
  return late;
}

const job = (id: string, attempt: number, delay: number): Job => ({
  id,
  eventId: `evt_${id}`,
  eventType: 'space_content_updated',
  body: '{}',
  attempt,
  delay,
});

describe('createDeliveryEngine: late retries are reported with their cause', () => {
  it('reports a retry claimed long after it fell due (waiting), and not a punctual one or a first attempt', async () => {
    const late = await runOnce([job('late', 2, 400), job('punctual', 2, 0), job('first', 1, 400)]);
    expect(late.map((l) => l.id)).toEqual(['late']);
    expect(late[0]?.late.cause).toBe('waiting_for_slot');
    expect(late[0]?.late.lateMs).toBeGreaterThanOrEqual(400);
  });

  it("bounds each retry by its window's arrival slack: 50 ms for the first retry, 200 ms for the third", async () => {
    // Each leaves about 120 ms after it fell due: outside the first retry's share, inside the third's.
    const late = await runOnce([job('retry-1', 2, 120), job('retry-3', 4, 120)]);
    expect(late.map((l) => l.id)).toEqual(['retry-1']);
  });

  it('blames the claim when the claim itself took the time', async () => {
    // Due when the claim began (delay counted from the claim's end: it fell due 300 ms before it returned).
    const late = await runOnce([job('slow-claim', 3, 300)], 300);
    expect(late).toHaveLength(1);
    expect(late[0]?.late.lateMs).toBeGreaterThanOrEqual(300);
    expect(late[0]?.late.cause).toBe('claim');
  });
});
