import { expect, it } from 'vitest';
import type { Storage } from '../storage.js';
import { type Ctx, installationInput } from './fixtures.js';

export function queueConcurrencyContract(ctx: () => Ctx): void {
  it('four concurrent claim loops on two Storage instances claim each of 200 jobs exactly once', async () => {
    const { storage, db } = ctx();
    const second = await db.open();
    const inst = await storage.installations.create(installationInput());
    const inputs = Array.from({ length: 200 }, (_, i) => ({
      kind: 'deliver' as const,
      installationId: inst.id,
      payload: { i },
      runAt: i,
    }));
    const enqueued = await storage.jobs.enqueue(inputs);
    const claims = new Map<string, number>();
    const loop = async (s: Storage) => {
      for (;;) {
        const jobs = await s.jobs.claim({ kinds: ['deliver'], limit: 7, leaseMs: 60_000, now: 1000 });
        if (jobs.length === 0) return;
        for (const job of jobs) {
          claims.set(job.id, (claims.get(job.id) ?? 0) + 1);
          expect(await s.jobs.complete(job, 'succeeded', 1001)).toBe(true);
        }
      }
    };
    await Promise.all([loop(storage), loop(second), loop(storage), loop(second)]);
    expect(claims.size).toBe(200);
    expect([...claims.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(claims.keys())).toEqual(new Set(enqueued.map((j) => j.id)));
    expect(await storage.jobs.nextDueAt(['deliver'])).toBeNull();
  });
}
