import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { AttemptInput } from '../repos/jobs-api.js';
import { type Ctx, deliveries, setup } from './fixtures.js';

/** Two deliveries of `installationId` (due at 5 and 6), both claimed at 10 with a 1 s lease. */
async function claimTwo(storage: Ctx['storage'], installationId: string) {
  const [a, b] = await storage.jobs.enqueue(
    [
      { kind: 'deliver', installationId, payload: { n: 1 }, runAt: 5 },
      { kind: 'deliver', installationId, payload: { n: 2 }, runAt: 6 },
    ],
    0,
  );
  const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 2, leaseMs: 1000, now: 10 });
  return { a: a!, b: b!, claimed };
}

export function queueContract(ctx: () => Ctx): void {
  it('enqueue creates queued jobs with kind-specific ids', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [dlv, job] = await storage.jobs.enqueue(
      [
        { kind: 'deliver', installationId, eventId: 'evt_1', payload: { body: '{"a":1}' } },
        { kind: 'invoke', installationId, payload: { event: { type: 'x' } }, runAt: 5000 },
      ],
      1000,
    );
    expect(dlv?.id).toMatch(/^dlv_/);
    expect(job?.id).toMatch(/^job_/);
    expect(await storage.jobs.getJob(dlv!.id)).toEqual({
      id: dlv!.id,
      kind: 'deliver',
      installationId,
      eventId: 'evt_1',
      payload: { body: '{"a":1}' },
      state: 'queued',
      series: 1,
      attempt: 0,
      runAt: 1000,
      leaseUntil: null,
      leaseToken: null,
      lastError: null,
      createdAt: 1000,
      updatedAt: 1000,
      finishedAt: null,
      attempts: [],
    });
    expect((await storage.jobs.getJob(job!.id))?.runAt).toBe(5000);
    expect(await storage.jobs.getJob('dlv_missing')).toBeNull();
  });

  it('enqueue of many jobs (several INSERT statements) is all or nothing', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const many = Array.from({ length: 150 }, (_, i) => ({
      id: `dlv_many_${i}`,
      kind: 'deliver' as const,
      installationId,
      payload: { i },
    }));
    // 121 rows: the duplicate id is in the second INSERT statement.
    const dup = await storage.jobs.enqueue([...many.slice(0, 120), { ...many[0]! }], 1).catch((e) => e);
    expect(isStorageError(dup, 'conflict')).toBe(true);
    expect(await storage.jobs.getJob('dlv_many_0')).toBeNull(); // the first statement was rolled back
    expect(await storage.jobs.enqueue(many, 2)).toHaveLength(150);
    expect((await storage.jobs.getJob('dlv_many_149'))?.payload).toEqual({ i: 149 });
  });

  it('claim takes only due jobs of the given kinds, oldest first, up to the limit, and leases them', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [late, early, mid, invoke] = await storage.jobs.enqueue([
      { kind: 'deliver', installationId, payload: {}, runAt: 300 },
      { kind: 'deliver', installationId, payload: {}, runAt: 100 },
      { kind: 'deliver', installationId, payload: {}, runAt: 200 },
      { kind: 'invoke', installationId, payload: {}, runAt: 100 },
    ]);
    const first = await storage.jobs.claim({ kinds: ['deliver'], limit: 2, leaseMs: 1000, now: 250 });
    expect(first.map((j) => j.id)).toEqual([early!.id, mid!.id]);
    for (const job of first) {
      expect(job).toMatchObject({ state: 'running', leaseUntil: 1250, updatedAt: 250 });
      expect(job.leaseToken).toEqual(expect.any(String));
    }
    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 250 })).toEqual([]);
    const next = await storage.jobs.claim({
      kinds: ['deliver', 'invoke'],
      limit: 5,
      leaseMs: 1000,
      now: 300,
    });
    expect(next.map((j) => j.id)).toEqual([invoke!.id, late!.id]);
    const bad = await storage.jobs.claim({ kinds: [], limit: 1, leaseMs: 1, now: 0 }).catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('claim with dueBy takes what falls due up to dueBy (queued and leases), leased from now', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [soon, later] = await storage.jobs.enqueue(deliveries(installationId, 1040, 1060));
    // A retry: queued again with attempt 1, due at 1030.
    const [retry] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    const [taken] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 0 });
    expect(taken?.id).toBe(retry!.id);
    const failed = { series: 1, number: 1, startedAt: 0, durationMs: 5, statusCode: 500 };
    expect(await storage.jobs.finishAttempt(taken!, failed, { runAt: 1030, lastError: null }, 5)).toBe(true);
    // A lease that ends at 1045.
    const [leased] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    expect((await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1045, now: 0 }))[0]?.id).toBe(
      leased!.id,
    );

    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 1000, now: 1000 })).toEqual([]);
    const ahead = await storage.jobs.claim({
      kinds: ['deliver'],
      limit: 10,
      leaseMs: 1000,
      now: 1000,
      dueBy: 1050,
    });
    // The retry first, then the lease ending by 1050 and the first attempt due by 1050, oldest first; each
    // leased from now.
    expect(ahead.map((j) => j.id)).toEqual([retry!.id, leased!.id, soon!.id]);
    for (const job of ahead)
      expect(job).toMatchObject({ state: 'running', leaseUntil: 2000, updatedAt: 1000 });
    expect((await storage.jobs.getJob(later!.id))?.state).toBe('queued');
    const bad = await storage.jobs
      .claim({ kinds: ['deliver'], limit: 1, leaseMs: 1, now: 1000, dueBy: 999 })
      .catch((e: unknown) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('a job whose lease expired (process died mid-attempt) is claimed again; the old claim can no longer finish it', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    const [first] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 10 });
    expect(first).toBeDefined();
    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 1009 })).toEqual([]);
    const [again] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 1000, now: 1010 });
    expect(again?.id).toBe(first!.id);
    expect(again?.leaseUntil).toBe(2010);
    expect(again?.leaseToken).not.toBe(first!.leaseToken);
    expect(await storage.jobs.complete(first!, 'succeeded', 1020)).toBe(false);
    const stale = { series: 1, number: 1, startedAt: 10, durationMs: 1 };
    expect(await storage.jobs.finishAttempt(first!, stale, { runAt: 5000, lastError: 'stale' }, 1020)).toBe(
      false,
    );
    expect(await storage.jobs.complete(again!, 'succeeded', 1030)).toBe(true);
    expect(await storage.jobs.getJob(first!.id)).toMatchObject({
      state: 'succeeded',
      finishedAt: 1030,
      leaseUntil: null,
      leaseToken: null,
    });
  });

  it('claim takes at most the allowance of each installation listed, in every lane, others uncapped; nextDueAt can skip some', async () => {
    const { storage } = ctx();
    const [busy, other, third] = ['inst_busy', 'inst_other', 'inst_third'];
    const [busyFirst, busySecond, busyThird, otherFirst, otherSecond, thirdFirst] =
      await storage.jobs.enqueue(
        [
          { kind: 'deliver', installationId: busy, payload: {}, runAt: 10 },
          { kind: 'deliver', installationId: busy, payload: {}, runAt: 20 },
          { kind: 'deliver', installationId: busy, payload: {}, runAt: 30 },
          { kind: 'deliver', installationId: other, payload: {}, runAt: 40 },
          { kind: 'deliver', installationId: other, payload: {}, runAt: 41 },
          { kind: 'deliver', installationId: third, payload: {}, runAt: 42 },
        ],
        0,
      );
    const caps = (allowances: Record<string, number>) => new Map(Object.entries(allowances));
    /** Claims up to 10 due deliveries at `now` (100 ms leases), each installation capped by `allowances`. */
    const claimCapped = (now: number, allowances: Record<string, number>) =>
      storage.jobs.claim({
        kinds: ['deliver'],
        limit: 10,
        leaseMs: 100,
        now,
        perInstallation: caps(allowances),
      });
    // One each: the oldest job of each installation.
    const one = await claimCapped(50, { [busy]: 1, [other]: 1, [third]: 1 });
    expect(one.map((j) => j.id)).toEqual([busyFirst!.id, otherFirst!.id, thirdFirst!.id]);
    await storage.jobs.complete(one[0]!, 'succeeded', 51);
    await storage.jobs.finishAttempt(
      one[1]!,
      { series: 1, number: 1, startedAt: 51, durationMs: 1, statusCode: 500 },
      { runAt: 60, lastError: 'HTTP 500' },
      52,
    );
    await storage.jobs.complete(one[2]!, 'succeeded', 52);
    // One more each: busy's oldest; other has a due retry and a first attempt → the retry.
    const some = await claimCapped(60, { [busy]: 1, [other]: 1 });
    expect(some.map((j) => j.id)).toEqual([otherFirst!.id, busySecond!.id]);
    expect(some[0]!.attempt).toBe(1); // the retry comes first
    // busyThird is still queued; with nothing left busy is skipped entirely (and so by nextDueAt).
    expect(await claimCapped(60, { [busy]: 0, [other]: 0 })).toEqual([]);
    expect(await storage.jobs.nextDueAt(['deliver'], [busy, other])).toBeNull();
    expect(await storage.jobs.nextDueAt(['deliver'], [other])).toBe(30);
    expect(await storage.jobs.nextDueAt(['deliver'])).toBe(30);
    // An installation not listed is not capped: busy's queued job.
    const leased = await claimCapped(60, { [other]: 0 });
    expect(leased.map((j) => j.id)).toEqual([busyThird!.id]);
    // At 200 every lease has expired: expired leases count like any due job of their installation.
    const expired = await claimCapped(200, { [busy]: 1, [other]: 1 });
    // busy's oldest (its second job) and other's oldest (a retry, listed first).
    expect(expired.map((j) => j.id)).toEqual([otherFirst!.id, busySecond!.id]);
    // What the allowances held back is there for an uncapped claim.
    const rest = await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 100, now: 200 });
    expect(rest.map((j) => j.id)).toEqual([busyThird!.id, otherSecond!.id]);
    const bad = await storage.jobs
      .claim({ kinds: ['deliver'], limit: 1, leaseMs: 1, now: 0, perInstallation: caps({ [busy]: -1 }) })
      .catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('release gives claimed jobs back untouched, only under their own claim', async () => {
    const { storage } = ctx();
    const { a, b, claimed } = await claimTwo(storage, 'inst_release');
    expect(claimed).toHaveLength(2);
    expect(await storage.jobs.release([{ id: a!.id, leaseToken: 'not-the-claim' }], 11)).toBe(0);
    expect(await storage.jobs.release(claimed, 12)).toBe(2);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({
      state: 'queued',
      runAt: 5,
      attempt: 0,
      leaseUntil: null,
      leaseToken: null,
      updatedAt: 12,
      attempts: [],
    });
    // Released once: the old claim can neither release nor finish them again.
    expect(await storage.jobs.release(claimed, 13)).toBe(0);
    expect(await storage.jobs.complete(claimed[0]!, 'succeeded', 13)).toBe(false);
    const again = await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 14 });
    expect(again.map((j) => j.id)).toEqual([a!.id, b!.id]);
    expect(await storage.jobs.release([], 15)).toBe(0);
  });

  it('defer puts claimed jobs back due later, attempt unchanged, only under their own claim', async () => {
    const { storage } = ctx();
    const { a, b, claimed } = await claimTwo(storage, 'inst_defer');
    const token = claimed[0]!.leaseToken;
    expect(await storage.jobs.defer([{ id: a!.id, leaseToken: 'not-the-claim', runAt: 500 }], 11)).toBe(0);
    expect(
      await storage.jobs.defer(
        [
          { id: a!.id, leaseToken: token, runAt: 500 },
          { id: b!.id, leaseToken: token, runAt: 600 },
        ],
        12,
      ),
    ).toBe(2);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({
      state: 'queued',
      runAt: 500,
      attempt: 0,
      attempts: [],
    });
    expect(await storage.jobs.nextDueAt(['deliver'])).toBe(500);
    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 499 })).toEqual([]);
    const due = await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 500 });
    expect(due.map((j) => j.id)).toEqual([a!.id]);
    // The old claim's token no longer defers anything.
    expect(await storage.jobs.defer([{ id: a!.id, leaseToken: token, runAt: 900 }], 13)).toBe(0);
  });

  it('complete and a retry (finishAttempt with runAt) act only on running jobs', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [a, b] = await storage.jobs.enqueue(deliveries(installationId, 0, 0));
    expect(await storage.jobs.complete(a!.id, 'succeeded', 1)).toBe(false);
    const attempt = { series: 1, number: 1, startedAt: 1, durationMs: 1 };
    const retryAt = (runAt: number, now: number, lastError: string) =>
      storage.jobs.finishAttempt(a!.id, attempt, { runAt, lastError }, now);
    expect(await retryAt(10, 1, 'x')).toBe(false);
    await storage.jobs.claim({ kinds: ['deliver'], limit: 2, leaseMs: 1000, now: 1 });

    expect(await retryAt(500, 2, 'HTTP 503')).toBe(true);
    expect(await storage.jobs.getJob(a!.id)).toMatchObject({
      state: 'queued',
      runAt: 500,
      lastError: 'HTTP 503',
    });
    expect(await retryAt(600, 3, 'again')).toBe(false);
    expect(await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 499 })).toEqual([]);
    expect((await storage.jobs.claim({ kinds: ['deliver'], limit: 5, leaseMs: 1000, now: 500 })).length).toBe(
      1,
    );

    expect(await storage.jobs.complete(b!.id, 'failed', 4, 'HTTP 400')).toBe(true);
    expect(await storage.jobs.complete(b!.id, 'succeeded', 5)).toBe(false);
    expect(await storage.jobs.getJob(b!.id)).toMatchObject({
      state: 'failed',
      finishedAt: 4,
      lastError: 'HTTP 400',
    });
    const bad = await storage.jobs.complete(a!.id, 'queued' as 'failed', 6).catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('finishAttempt stores attempts idempotently even without the claim, advances attempt and cuts the excerpt to 4096 bytes', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [job] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    const id = job!.id;
    // The job is not running (never claimed): each attempt is stored, the job stays queued.
    const record = async (jobId: string, attempt: AttemptInput) =>
      expect(await storage.jobs.finishAttempt(jobId, attempt, { state: 'failed' }, 0)).toBe(false);
    await record(id, {
      series: 1,
      number: 1,
      startedAt: 10,
      durationMs: 5,
      statusCode: 500,
    });
    await record(id, {
      series: 1,
      number: 2,
      startedAt: 20,
      durationMs: 7,
      error: 'ECONNREFUSED',
      responseExcerpt: `${'a'.repeat(4095)}é tail`,
    });
    await record(id, {
      series: 1,
      number: 1,
      startedAt: 11,
      durationMs: 6,
      statusCode: 502,
    });
    const stored = await storage.jobs.getJob(id);
    expect(stored?.state).toBe('queued');
    expect(stored?.attempt).toBe(2);
    expect(stored?.attempts).toEqual([
      {
        series: 1,
        number: 1,
        startedAt: 11,
        durationMs: 6,
        statusCode: 502,
        error: null,
        responseExcerpt: null,
      },
      {
        series: 1,
        number: 2,
        startedAt: 20,
        durationMs: 7,
        statusCode: null,
        error: 'ECONNREFUSED',
        responseExcerpt: 'a'.repeat(4095),
      },
    ]);
    const missing = await storage.jobs
      .finishAttempt(
        'dlv_missing',
        { series: 1, number: 1, startedAt: 0, durationMs: 0 },
        { state: 'failed' },
        0,
      )
      .catch((e) => e);
    expect(isStorageError(missing, 'not_found')).toBe(true);
  });

  it('nextDueAt gives the earliest queued runAt or running lease expiry', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    expect(await storage.jobs.nextDueAt(['deliver'])).toBeNull();
    await storage.jobs.enqueue([
      { kind: 'deliver', installationId, payload: {}, runAt: 1_700_000_005_000 },
      { kind: 'deliver', installationId, payload: {}, runAt: 1_700_000_003_000 },
      { kind: 'invoke', installationId, payload: {}, runAt: 1_700_000_001_000 },
    ]);
    const due = await storage.jobs.nextDueAt(['deliver']);
    expect(due).toBe(1_700_000_003_000);
    expect(typeof due).toBe('number');
    expect(await storage.jobs.nextDueAt(['invoke', 'deliver'])).toBe(1_700_000_001_000);
    await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 500, now: 1_700_000_003_000 });
    expect(await storage.jobs.nextDueAt(['deliver'])).toBe(1_700_000_003_500);
  });

  it('redeliver starts a new series on terminal jobs only, keeping the attempt history', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [job] = await storage.jobs.enqueue([{ kind: 'deliver', installationId, payload: {}, runAt: 0 }]);
    const id = job!.id;
    expect(isStorageError(await storage.jobs.redeliver(id, 1).catch((e) => e), 'conflict')).toBe(true);
    expect(isStorageError(await storage.jobs.redeliver('dlv_nope', 1).catch((e) => e), 'not_found')).toBe(
      true,
    );
    const [claimed] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 100, now: 1 });
    const first = { series: 1, number: 1, startedAt: 1, durationMs: 1, statusCode: 400 };
    expect(
      await storage.jobs.finishAttempt(claimed!, first, { state: 'failed', lastError: 'HTTP 400' }, 2),
    ).toBe(true);

    const again = await storage.jobs.redeliver(id, 50);
    expect(again).toMatchObject({
      state: 'queued',
      series: 2,
      attempt: 0,
      runAt: 50,
      finishedAt: null,
      lastError: null,
    });
    const [reclaimed] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 100, now: 50 });
    expect(reclaimed?.series).toBe(2);
    // A late attempt of the old series (its claim is long gone) is stored but finishes nothing.
    const late = { series: 1, number: 3, startedAt: 51, durationMs: 1 };
    expect(await storage.jobs.finishAttempt(claimed!, late, { state: 'failed' }, 51)).toBe(false);
    const second = { series: 2, number: 1, startedAt: 51, durationMs: 1, statusCode: 200 };
    expect(await storage.jobs.finishAttempt(reclaimed!, second, { state: 'succeeded' }, 52)).toBe(true);
    const final = await storage.jobs.getJob(id);
    expect(final?.attempt).toBe(1);
    expect(final?.attempts.map((a) => `${a.series}.${a.number}`)).toEqual(['1.1', '1.3', '2.1']);
  });

  it('redeliverRange requeues the failed/exhausted jobs of one installation created in a range', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const otherId = await setup(storage);
    const make = async (inst: string, createdAt: number, state: 'failed' | 'exhausted' | 'succeeded') => {
      const [job] = await storage.jobs.enqueue(
        [{ kind: 'deliver', installationId: inst, payload: {}, runAt: 0 }],
        createdAt,
      );
      const [claimed] = await storage.jobs.claim({
        kinds: ['deliver'],
        limit: 1,
        leaseMs: 10,
        now: createdAt,
      });
      expect(claimed?.id).toBe(job!.id);
      await storage.jobs.complete(claimed!, state, createdAt);
      return job!.id;
    };
    const inRange1 = await make(installationId, 100, 'failed');
    const inRange2 = await make(installationId, 150, 'exhausted');
    const succeeded = await make(installationId, 160, 'succeeded');
    const tooLate = await make(installationId, 200, 'failed');
    const otherInst = await make(otherId, 120, 'failed');
    expect(await storage.jobs.redeliverRange(installationId, { since: 100, until: 200 }, 1000)).toBe(2);
    for (const id of [inRange1, inRange2]) {
      expect(await storage.jobs.getJob(id)).toMatchObject({ state: 'queued', series: 2, runAt: 1000 });
    }
    expect((await storage.jobs.getJob(succeeded))?.state).toBe('succeeded');
    expect((await storage.jobs.getJob(tooLate))?.state).toBe('failed');
    expect((await storage.jobs.getJob(otherInst))?.state).toBe('failed');
    expect(await storage.jobs.redeliverRange(installationId, { states: ['succeeded'] }, 1001)).toBe(1);
  });

  it('listDeliveries pages newest first with filters and attempts', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [job] = await storage.jobs.enqueue(
        [{ kind: 'deliver', installationId, payload: { i }, runAt: 0 }],
        100 + i,
      );
      ids.push(job!.id);
    }
    await storage.jobs.enqueue([{ kind: 'invoke', installationId, payload: {} }], 500);
    const attempt = { series: 1, number: 1, startedAt: 1, durationMs: 1, statusCode: 200 };
    expect(await storage.jobs.finishAttempt(ids[4]!, attempt, { state: 'succeeded' }, 1)).toBe(false);

    const page1 = await storage.jobs.listDeliveries(installationId, { limit: 2 });
    expect(page1.items.map((j) => j.id)).toEqual([ids[4], ids[3]]);
    expect(page1.items[0]?.attempts).toHaveLength(1);
    expect(page1.items[1]?.attempts).toEqual([]);
    const page2 = await storage.jobs.listDeliveries(installationId, { limit: 2, cursor: page1.nextCursor! });
    expect(page2.items.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const page3 = await storage.jobs.listDeliveries(installationId, { limit: 2, cursor: page2.nextCursor! });
    expect(page3.items.map((j) => j.id)).toEqual([ids[0]]);
    expect(page3.nextCursor).toBeNull();

    const ranged = await storage.jobs.listDeliveries(installationId, { since: 101, until: 103 });
    expect(ranged.items.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const [claimed] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 10, now: 1 });
    await storage.jobs.complete(claimed!, 'exhausted', 2);
    const exhausted = await storage.jobs.listDeliveries(installationId, { state: 'exhausted' });
    expect(exhausted.items.map((j) => j.id)).toEqual([claimed!.id]);
    expect((await storage.jobs.listDeliveries(installationId, { kind: 'invoke' })).items).toHaveLength(1);
    const bad = await storage.jobs.listDeliveries(installationId, { cursor: 'garbage' }).catch((e) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
  });

  it('cancelForInstallation cancels queued and running jobs only', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [a, b, c] = await storage.jobs.enqueue([
      { kind: 'deliver', installationId, payload: {}, runAt: 0 },
      { kind: 'deliver', installationId, payload: {}, runAt: 1 },
      { kind: 'invoke', installationId, payload: {}, runAt: 2 },
    ]);
    const [running] = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 10, now: 0 });
    expect(running?.id).toBe(a!.id);
    const [done] = await storage.jobs.claim({ kinds: ['invoke'], limit: 1, leaseMs: 10, now: 5 });
    await storage.jobs.complete(done!, 'succeeded', 5);
    expect(await storage.jobs.cancelForInstallation(installationId, 9)).toBe(2);
    expect((await storage.jobs.getJob(a!.id))?.state).toBe('cancelled');
    expect((await storage.jobs.getJob(b!.id))?.state).toBe('cancelled');
    expect((await storage.jobs.getJob(c!.id))?.state).toBe('succeeded');
    expect(await storage.jobs.complete(running!, 'succeeded', 10)).toBe(false);
    expect(
      await storage.jobs.claim({ kinds: ['deliver', 'invoke'], limit: 9, leaseMs: 10, now: 1e13 }),
    ).toEqual([]);
  });
}
