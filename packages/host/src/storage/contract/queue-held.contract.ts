import { expect, it } from 'vitest';
import { type Ctx, installationInput, setup } from './fixtures.js';

/** The queue seen from monitoring (queueStats) and a slow endpoint's held jobs (claimHeld, unhold). */
export function queueHeldContract(ctx: () => Ctx): void {
  it('queueStats counts queued, due and running jobs per kind, with the oldest due time', async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    expect(await storage.jobs.queueStats(1000)).toEqual([]);
    await storage.jobs.enqueue(
      [
        { kind: 'deliver', installationId, payload: {}, runAt: 100 },
        { kind: 'deliver', installationId, payload: {}, runAt: 300 },
        { kind: 'deliver', installationId, payload: {}, runAt: 5000 }, // not due yet at 1000
        { kind: 'invoke', installationId, payload: {}, runAt: 200 },
      ],
      50,
    );
    const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 1, leaseMs: 10_000, now: 1000 });
    expect(claimed).toHaveLength(1); // the one due at 100: now running
    expect(await storage.jobs.queueStats(1000)).toEqual([
      { kind: 'deliver', queued: 2, held: 0, due: 1, running: 1, oldestDueAt: 300 },
      { kind: 'invoke', queued: 1, held: 0, due: 1, running: 0, oldestDueAt: 200 },
    ]);
    expect((await storage.jobs.queueStats(10)).find((s) => s.kind === 'deliver')).toEqual({
      kind: 'deliver',
      queued: 2,
      held: 0,
      due: 0,
      running: 1,
      oldestDueAt: null,
    });
  });

  it('held jobs stay out of claims; claimHeld takes them per installation, unhold queues them again', async () => {
    const { storage } = ctx();
    const slowId = await setup(storage);
    const other = (await storage.installations.create(installationInput({ spaceId: 'space_2' }))).id;
    const held = [];
    for (const i of [0, 1, 2]) {
      held.push(
        ...(await storage.jobs.enqueue(
          [{ kind: 'deliver', installationId: slowId, payload: { i }, hold: true }],
          100 + i,
        )),
      );
    }
    expect(held.map((j) => j.state)).toEqual(['held', 'held', 'held']);
    await storage.jobs.enqueue([{ kind: 'deliver', installationId: other, payload: {} }], 200);
    // a claim (even without allowances) never sees held jobs, nor does the next due time
    const claimed = await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 10_000, now: 1000 });
    expect(claimed.map((j) => j.installationId)).toEqual([other]);
    expect(await storage.jobs.nextDueAt(['deliver'])).toBe(1000 + 10_000); // the running one's lease only
    expect((await storage.jobs.queueStats(1000)).find((s) => s.kind === 'deliver')).toMatchObject({
      queued: 0,
      held: 3,
      due: 0,
      running: 1,
    });
    // listed as queued deliveries
    const listed = await storage.jobs.listDeliveries(slowId, { state: 'queued' });
    expect(listed.items.map((d) => d.id).sort()).toEqual(held.map((j) => j.id).sort());

    const two = await storage.jobs.claimHeld({ installationId: slowId, limit: 2, leaseMs: 5000, now: 2000 });
    expect(two.map((j) => j.payload)).toEqual([{ i: 0 }, { i: 1 }]); // oldest runAt first
    expect(two.every((j) => j.state === 'running' && j.leaseUntil === 7000 && j.leaseToken)).toBe(true);
    expect(
      await storage.jobs.claimHeld({ installationId: other, limit: 5, leaseMs: 5000, now: 2000 }),
    ).toEqual([]);

    // unhold: by installation, or every installation but the excepted ones
    expect(await storage.jobs.unhold({ except: [slowId] }, 3000)).toBe(0);
    expect(await storage.jobs.unhold({ except: [] }, 3000)).toBe(1);
    const again = await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 1000, now: 3000 });
    expect(again.map((j) => j.payload)).toEqual([{ i: 2 }]);
    await storage.jobs.enqueue(
      [{ kind: 'deliver', installationId: slowId, payload: { i: 3 }, hold: true }],
      4000,
    );
    expect(await storage.jobs.unhold({ installationId: other }, 4000)).toBe(0);
    expect(await storage.jobs.unhold({ installationId: slowId }, 4000)).toBe(1);
    expect((await storage.jobs.listDeliveries(slowId, { state: 'queued' })).items).toHaveLength(1);
  });

  it("cancelling an installation's jobs includes its held ones", async () => {
    const { storage } = ctx();
    const installationId = await setup(storage);
    const [job] = await storage.jobs.enqueue(
      [{ kind: 'deliver', installationId, payload: {}, hold: true }],
      1,
    );
    await storage.installations.delete(installationId);
    expect((await storage.jobs.getJob(job?.id ?? ''))?.state).toBe('cancelled');
  });
}
