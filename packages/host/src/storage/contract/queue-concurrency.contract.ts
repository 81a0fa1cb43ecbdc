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

  it('a claim tells whether due jobs were left behind at its limit (PostgreSQL; SQLite does not count)', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    const other = await storage.installations.create(installationInput());
    await storage.jobs.enqueue(
      Array.from({ length: 5 }, (_, i) => ({
        kind: 'deliver' as const,
        installationId: i < 3 ? inst.id : other.id,
        payload: { i },
        runAt: 10 + i,
      })),
    );
    await storage.jobs.enqueue([{ kind: 'deliver', installationId: inst.id, payload: {}, runAt: 5000 }]);
    const claim = (limit: number, perInstallation?: Map<string, number>) =>
      storage.jobs.claim({
        kinds: ['deliver'],
        limit,
        leaseMs: 60_000,
        now: 100,
        ...(perInstallation ? { perInstallation } : {}),
      });
    const counted = storage.dialect === 'postgres';
    const two = await claim(2);
    expect(two).toHaveLength(2);
    expect(two.moreDue).toBe(counted ? true : null);
    // Within a share: 1 of inst's last due job (the other one is not due yet), then other's two.
    const shared = await claim(2, new Map([[inst.id, 1]]));
    expect(shared.map((job) => job.installationId).sort()).toEqual([inst.id, other.id].sort());
    expect(shared.moreDue).toBe(counted ? true : null);
    // Exactly the last due job: full, yet nothing is left (the job due at 5000 does not count).
    const last = await claim(1);
    expect(last).toHaveLength(1);
    expect(last.moreDue).toBe(counted ? false : null);
    const none = await claim(4);
    expect(none).toEqual([]);
    expect(none.moreDue).toBe(counted ? false : null);
    // Not enumerable: the result still equals the plain array.
    expect(Object.keys(last)).toEqual(['0']);
  });
}
