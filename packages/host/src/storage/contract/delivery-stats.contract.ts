import { expect, it } from 'vitest';
import { HOST_WIDE, HOUR_MS, MINUTE_MS } from '../../stats/figures.js';
import { decode, total } from '../../stats/histogram.js';
import { ROLLED_UNTIL_KEY, rollupOnce } from '../../stats/rollup.js';
import { deliverySeries } from '../../stats/series.js';
import type { Storage } from '../storage.js';
import { type Ctx, installationInput } from './fixtures.js';

/** A minute boundary, 10 minutes into an hour. */
const M = Math.floor(1_700_000_000_000 / HOUR_MS) * HOUR_MS + 10 * MINUTE_MS;

type Outcome = { state: 'succeeded' | 'failed' | 'exhausted' } | { runAt: number; lastError: string };

/** One leased job per call, accepted at `createdAt`, with the attempts given (recorded in order). */
async function delivery(
  storage: Storage,
  installationId: string,
  createdAt: number,
  attempts: { number: number; startedAt: number; durationMs: number; statusCode?: number; error?: string }[],
  kind: 'deliver' | 'invoke' = 'deliver',
): Promise<string> {
  const token = `lease_${Math.random().toString(36).slice(2)}`;
  const [job] = await storage.jobs.enqueue(
    [{ kind, installationId, payload: {}, lease: { until: createdAt + HOUR_MS, token } }],
    createdAt,
  );
  if (!job) throw new Error('no job');
  let ref = { id: job.id, leaseToken: token as string | null };
  for (const [i, a] of attempts.entries()) {
    const ended = a.startedAt + a.durationMs;
    const outcome: Outcome =
      i === attempts.length - 1
        ? { state: a.statusCode !== undefined && a.statusCode < 300 ? 'succeeded' : 'failed' }
        : { runAt: ended + 1000, lastError: 'x' };
    const attempt = { series: 1, ...a, statusCode: a.statusCode ?? null, error: a.error ?? null };
    expect(await storage.jobs.finishAttempt(ref, attempt, outcome, ended)).toBe(true);
    if ('runAt' in outcome) {
      const [again] = await storage.jobs.claim({
        kinds: [kind],
        limit: 1,
        leaseMs: HOUR_MS,
        now: outcome.runAt,
      });
      if (!again) throw new Error('not claimed again');
      ref = { id: again.id, leaseToken: again.leaseToken };
    }
  }
  return job.id;
}

/** Delivery statistics: the rollup of attempts into minute and hour rows, idempotent, on both dialects. */
export function deliveryStatsContract(ctx: () => Ctx): void {
  it('deliveryStats.attempts reads one span of delivery attempts in order, a page at a time, without invocations', async () => {
    const { storage } = ctx();
    const { id } = await storage.installations.create(installationInput());
    for (let i = 0; i < 5; i += 1) {
      await delivery(storage, id, M, [
        { number: 1, startedAt: M + 1000 + (i % 2), durationMs: 3, statusCode: 200 },
      ]);
    }
    await delivery(
      storage,
      id,
      M,
      [{ number: 1, startedAt: M + 1000, durationMs: 3, statusCode: 200 }],
      'invoke',
    );
    await delivery(storage, id, M, [{ number: 1, startedAt: M + MINUTE_MS, durationMs: 3, statusCode: 200 }]);
    const seen: string[] = [];
    let after = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await storage.deliveryStats.attempts(M, M + MINUTE_MS, after, 2);
      seen.push(...page.map((a) => `${a.startedAt}:${a.jobId}`));
      const last = page.at(-1);
      if (!last) break;
      after = last;
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort()).toEqual(seen);
    expect(new Set(seen).size).toBe(5);
  });

  it('rollupOnce counts each minute once per installation and host-wide, by the retry policy, with percentiles and backlog', async () => {
    const { storage, db } = ctx();
    const a = (await storage.installations.create(installationInput())).id;
    const b = (await storage.installations.create(installationInput({ spaceId: 'space_2' }))).id;
    // A: 200 at once (first attempt 40 ms after acceptance); 503 then 200; 503 × 4 (exhausted).
    await delivery(storage, a, M - 40, [{ number: 1, startedAt: M, durationMs: 5, statusCode: 200 }]);
    await delivery(storage, a, M + 100, [
      { number: 1, startedAt: M + 102, durationMs: 7, statusCode: 503 },
      { number: 2, startedAt: M + 1200, durationMs: 6, statusCode: 200 },
    ]);
    await delivery(storage, a, M + 200, [
      { number: 1, startedAt: M + 202, durationMs: 2, statusCode: 500 },
      { number: 2, startedAt: M + 1300, durationMs: 2, statusCode: 500 },
      { number: 3, startedAt: M + 3400, durationMs: 2, statusCode: 500 },
      { number: 4, startedAt: M + 7600, durationMs: 2, statusCode: 500 },
    ]);
    // B: 404 (final), a timeout (retried), and one attempt in the next minute.
    await delivery(storage, b, M + 300, [{ number: 1, startedAt: M + 301, durationMs: 1, statusCode: 404 }]);
    await delivery(storage, b, M + 400, [
      { number: 1, startedAt: M + 401, durationMs: 3000, error: 'timeout: no answer in 3000 ms' },
      { number: 2, startedAt: M + MINUTE_MS + 5, durationMs: 4, statusCode: 200 },
    ]);
    // An invocation's attempt is no delivery.
    await delivery(
      storage,
      a,
      M,
      [{ number: 1, startedAt: M + 10, durationMs: 1, statusCode: 200 }],
      'invoke',
    );
    // Waiting deliveries: one due, one later (sampled into the current minute only).
    const now = M + MINUTE_MS + 30_000;
    await storage.jobs.enqueue(
      [
        { kind: 'deliver', installationId: b, payload: {}, runAt: now - 1 },
        { kind: 'deliver', installationId: b, payload: {}, runAt: now + 60_000 },
      ],
      now - 1,
    );

    const first = await rollupOnce(storage, now);
    expect(first.attempts).toBe(10);
    const minute = async (id: string, at = M) =>
      (await storage.deliveryStats.read(MINUTE_MS, id, at, at + MINUTE_MS))[0];
    expect(await minute(HOST_WIDE)).toMatchObject({ attempts: 9, succeeded: 2, retried: 5, failed: 2 });
    expect(await minute(a)).toMatchObject({
      attempts: 7,
      succeeded: 2,
      retried: 4,
      failed: 1,
      backlogQueued: null,
    });
    expect(await minute(b)).toMatchObject({ attempts: 2, succeeded: 0, retried: 1, failed: 1 });
    expect(await minute(b, M + MINUTE_MS)).toMatchObject({
      attempts: 1,
      succeeded: 1,
      backlogQueued: 2,
      backlogDue: 1,
    });
    expect(await minute(HOST_WIDE, M + MINUTE_MS)).toMatchObject({ backlogQueued: 2, backlogDue: 1 });
    // First attempts of A: 40, 2, 2 ms after acceptance; durations of every attempt.
    const hostRow = (await minute(HOST_WIDE))!;
    expect(total(decode(hostRow.firstAttemptHist))).toBe(5);
    expect(total(decode(hostRow.durationHist))).toBe(9);

    // Rolled up again, by this storage and by a second one on the same database (another host): same rows.
    const before = await storage.deliveryStats.readAll(MINUTE_MS, M - HOUR_MS, M + HOUR_MS);
    await storage.settings.delete(ROLLED_UNTIL_KEY);
    const other = await db.open(); // closed by the database's dispose
    await Promise.all([rollupOnce(other, now + 1000), rollupOnce(storage, now + 2000)]);
    const after = await storage.deliveryStats.readAll(MINUTE_MS, M - HOUR_MS, M + HOUR_MS);
    expect(after).toEqual(before);

    // The hour row adds up its minutes.
    const hour = (await storage.deliveryStats.read(HOUR_MS, HOST_WIDE, M - 10 * MINUTE_MS, M + HOUR_MS))[0];
    expect(hour).toMatchObject({
      bucketAt: M - 10 * MINUTE_MS,
      attempts: 10,
      succeeded: 3,
      retried: 5,
      failed: 2,
    });
    expect(hour?.backlogQueued).toBe(2);

    // The API's series: the minute's counts and percentiles (durations 1..3000 ms; first attempts 2..300 ms).
    const series = await deliverySeries(storage, { range: 'hour', installationId: null }, now);
    expect(series.buckets).toHaveLength(60);
    const bucket = series.buckets.find((x) => x.at === new Date(M).toISOString());
    expect(bucket).toMatchObject({ attempts: 9, succeeded: 2, retried: 5, failed: 2 });
    expect(bucket?.duration.p50).toBe(2); // 1, 2, 2, 2, [2], 5, 6, 7, 3000
    expect(bucket?.duration.p99).toBeGreaterThan(2700);
    expect(bucket?.firstAttempt.p50).toBe(2);
    expect(bucket?.firstAttempt.p99).toBeGreaterThan(36);
    expect(bucket?.firstAttempt.p99).toBeLessThan(44);
    const week = await deliverySeries(storage, { range: 'week', installationId: b }, now);
    expect(week.buckets.reduce((n, x) => n + x.attempts, 0)).toBe(3);
  });

  it('rollupOnce prunes minute rows after a day and hour rows after 30 days', async () => {
    const { storage } = ctx();
    const row = (resolutionMs: number, bucketAt: number) => ({
      resolutionMs,
      installationId: HOST_WIDE,
      bucketAt,
      attempts: 1,
      succeeded: 1,
      retried: 0,
      failed: 0,
      durationHist: '[0,1]',
      firstAttemptHist: '[]',
      backlogQueued: null,
      backlogDue: null,
    });
    await storage.deliveryStats.upsert(
      [
        row(MINUTE_MS, M - 26 * HOUR_MS),
        row(MINUTE_MS, M - 2 * HOUR_MS),
        row(HOUR_MS, M - 31 * 24 * HOUR_MS),
        row(HOUR_MS, M - 29 * 24 * HOUR_MS),
      ],
      M,
    );
    const result = await rollupOnce(storage, M);
    expect(result.pruned).toBe(2);
    expect((await storage.deliveryStats.readAll(MINUTE_MS, 0, M)).map((r) => r.bucketAt)).toEqual([
      M - 2 * HOUR_MS,
    ]);
    // (and the hour of the current minute, whose backlog this run sampled)
    expect((await storage.deliveryStats.readAll(HOUR_MS, 0, M)).map((r) => r.bucketAt)).toEqual([
      M - 29 * 24 * HOUR_MS,
      M - 10 * MINUTE_MS,
    ]);
  });
}
