import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { type Ctx, deliveries, installationInput } from './fixtures.js';

/** finishAttempt (record + complete/reschedule in one transaction) and the retry-first claim order. */
export function queueFinishContract(ctx: () => Ctx): void {
  it('finishAttempt records the attempt and completes or reschedules the job under its claim', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    const [a, b] = await storage.jobs.enqueue(deliveries(installationId, 0, 0));
    const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 2, leaseMs: 1000, now: 1 });
    const ja = claimed.find((j) => j.id === a!.id)!;
    const jb = claimed.find((j) => j.id === b!.id)!;

    const attempt = { series: 1, number: 1, startedAt: 2, durationMs: 3, statusCode: 503 };
    expect(await storage.jobs.finishAttempt(ja, attempt, { runAt: 1005, lastError: 'HTTP 503' }, 5)).toBe(
      true,
    );
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({
      state: 'queued',
      attempt: 1,
      runAt: 1005,
      lastError: 'HTTP 503',
      leaseToken: null,
      leaseUntil: null,
      updatedAt: 5,
      attempts: [{ series: 1, number: 1, startedAt: 2, durationMs: 3, statusCode: 503, error: null }],
    });
    // The same claim cannot finish it twice.
    expect(await storage.jobs.finishAttempt(ja, { ...attempt, number: 2 }, { state: 'succeeded' }, 6)).toBe(
      false,
    );

    expect(
      await storage.jobs.finishAttempt(
        jb,
        { series: 1, number: 1, startedAt: 2, durationMs: 4, statusCode: 200, responseExcerpt: 'ok' },
        { state: 'succeeded' },
        7,
      ),
    ).toBe(true);
    expect(await storage.jobs.getJob(b!.id)).toMatchObject({
      state: 'succeeded',
      attempt: 1,
      finishedAt: 7,
      lastError: null,
      attempts: [{ number: 1, statusCode: 200, responseExcerpt: 'ok' }],
    });

    const bad = await Promise.resolve()
      .then(() => storage.jobs.finishAttempt(jb, attempt, { state: 'queued' as 'failed' }, 8))
      .catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('finishAttempt by a worker whose lease was taken over records the attempt but does not end the job', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    const [job] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    const [stale] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 100, now: 10 });
    const [fresh] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 110 });
    expect(fresh?.id).toBe(job!.id);
    const attempt = { series: 1, number: 1, startedAt: 20, durationMs: 200, statusCode: 500 };
    expect(await storage.jobs.finishAttempt(stale!, attempt, { state: 'failed', lastError: 'x' }, 220)).toBe(
      false,
    );
    const after = await storage.jobs.getJob(job!.id);
    expect(after).toMatchObject({
      state: 'running',
      attempt: 1,
      leaseToken: fresh!.leaseToken,
      lastError: null,
    });
    expect(after?.attempts).toHaveLength(1);
    // The new claimer finishes it (its attempt 2, the next number).
    expect(
      await storage.jobs.finishAttempt(
        fresh!,
        { series: 1, number: 2, startedAt: 230, durationMs: 5, statusCode: 200 },
        { state: 'succeeded' },
        240,
      ),
    ).toBe(true);
    expect(await storage.jobs.getJob(job!.id)).toMatchObject({ state: 'succeeded', attempt: 2 });
  });

  it('finishAttempts ends several claims in one transaction, one result each, all or nothing', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    const [a, b, c] = await storage.jobs.enqueue(
      [0, 1, 2].map(() => ({ kind: 'deliver' as const, installationId, payload: {}, runAt: 0 })),
    );
    const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 3, leaseMs: 1000, now: 1 });
    const ref = (id: string) => claimed.find((j) => j.id === id)!;
    const attempt = (statusCode: number) => ({
      series: 1,
      number: 1,
      startedAt: 2,
      durationMs: 3,
      statusCode,
    });

    // One bad item: nothing of the group is written.
    const bad = await storage.jobs
      .finishAttempts(
        [
          { job: ref(a!.id), attempt: attempt(200), outcome: { state: 'succeeded' } },
          { job: ref(b!.id), attempt: attempt(200), outcome: { state: 'queued' as 'failed' } },
        ],
        4,
      )
      .catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({ state: 'running', attempts: [] });

    expect(
      await storage.jobs.finishAttempts(
        [
          { job: ref(a!.id), attempt: attempt(200), outcome: { state: 'succeeded' } },
          { job: ref(b!.id), attempt: attempt(503), outcome: { runAt: 1005, lastError: 'HTTP 503' } },
          { job: ref(c!.id), attempt: attempt(404), outcome: { state: 'failed', lastError: 'HTTP 404' } },
          // the same claim again: recorded, but it no longer ends anything
          { job: ref(a!.id), attempt: { ...attempt(200), number: 2 }, outcome: { state: 'succeeded' } },
        ],
        5,
      ),
    ).toEqual([true, true, true, false]);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({ state: 'succeeded', finishedAt: 5, attempt: 2 });
    expect(await storage.jobs.getJob(b!.id)).toMatchObject({
      state: 'queued',
      runAt: 1005,
      attempt: 1,
      lastError: 'HTTP 503',
      attempts: [{ statusCode: 503 }],
    });
    expect(await storage.jobs.getJob(c!.id)).toMatchObject({ state: 'failed', lastError: 'HTTP 404' });
    expect(await storage.jobs.finishAttempts([], 6)).toEqual([]);
  });

  it('finishAttempts of distinct jobs (one statement each for attempts and jobs): every outcome, and a lost claim', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    const jobs = await storage.jobs.enqueue(
      [0, 1, 2, 3].map(() => ({ kind: 'deliver' as const, installationId, payload: {}, runAt: 0 })),
    );
    const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 4, leaseMs: 1000, now: 1 });
    const [a, b, c, d] = jobs.map((job) => claimed.find((j) => j.id === job.id)!);
    const attempt = (statusCode: number, number = 1) => ({
      series: 1,
      number,
      startedAt: 2,
      durationMs: 3,
      statusCode,
    });
    expect(
      await storage.jobs.finishAttempts(
        [
          { job: a!, attempt: attempt(200), outcome: { state: 'succeeded' } },
          { job: b!, attempt: attempt(503), outcome: { runAt: 2000, lastError: 'HTTP 503' } },
          { job: c!, attempt: attempt(410), outcome: { state: 'failed', lastError: 'HTTP 410' } },
          // a worker whose lease was taken over: its attempt 2 is recorded, the job is not ended
          {
            job: { id: d!.id, leaseToken: 'another' },
            attempt: attempt(200, 2),
            outcome: { state: 'succeeded' },
          },
        ],
        7,
      ),
    ).toEqual([true, true, true, false]);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({ state: 'succeeded', finishedAt: 7, attempt: 1 });
    expect(await storage.jobs.getJob(b!.id)).toMatchObject({
      state: 'queued',
      runAt: 2000,
      attempt: 1,
      finishedAt: null,
      leaseToken: null,
      lastError: 'HTTP 503',
      attempts: [{ statusCode: 503 }],
    });
    expect(await storage.jobs.getJob(c!.id)).toMatchObject({
      state: 'failed',
      lastError: 'HTTP 410',
      finishedAt: 7,
    });
    expect(await storage.jobs.getJob(d!.id)).toMatchObject({
      state: 'running',
      attempt: 2,
      attempts: [{ number: 2, statusCode: 200 }],
    });
  });

  it('claim takes due retries and expired leases before first attempts, oldest first within each', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    // A backlog of first attempts due since t=100..104, and a job that will be retried.
    const [retried, ...backlog] = await storage.jobs.enqueue(
      [0, 1, 2, 3, 4, 5].map((i) => ({
        kind: 'deliver' as const,
        installationId,
        payload: {},
        runAt: 50 + i,
      })),
    );
    const [first] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 10_000, now: 60 });
    expect(first?.id).toBe(retried!.id);
    await storage.jobs.finishAttempt(
      first!,
      { series: 1, number: 1, startedAt: 60, durationMs: 1, statusCode: 500 },
      { runAt: 1000, lastError: 'HTTP 500' },
      61,
    );
    // Not yet due: first attempts only.
    const early = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 50, now: 999 });
    expect(early.map((j) => j.id)).toEqual([backlog[0]!.id]);
    // Due: the retry (runAt 1000) and the expired lease of `early` (runAt 51, lease until 1049) before older first attempts.
    const next = await storage.jobs.claim({ kinds: ['deliver'], limit: 3, leaseMs: 10_000, now: 1050 });
    expect(next.map((j) => j.id).sort()).toEqual([retried!.id, backlog[0]!.id, backlog[1]!.id].sort());
    expect(next[0]?.id).toBe(retried!.id); // returned retries first
    const rest = await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 10_000, now: 1050 });
    expect(rest.map((j) => j.id)).toEqual(backlog.slice(2).map((j) => j.id));
  });
}
