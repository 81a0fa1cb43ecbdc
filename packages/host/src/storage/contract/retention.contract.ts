import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { type Ctx, installationInput, invocationLogInput } from './fixtures.js';

const DAY = 24 * 3600_000;
const NOW = 1_700_000_000_000;

/** Retention: `prune` of finished jobs (with their attempts), events and invocation logs, by age. */
export function retentionContract(ctx: () => Ctx): void {
  it('jobs.prune deletes finished jobs older than the cut with their attempts, never queued or running ones', async () => {
    const { storage } = ctx();
    const { id: installationId } = await storage.installations.create(installationInput());
    const old = NOW - 40 * DAY;
    // Every job inserted leased (as the hand-over does), then ended under that lease.
    const leased = (runAt: number, token: string) => ({
      kind: 'deliver' as const,
      installationId,
      payload: {},
      runAt,
      lease: { until: NOW + 60_000, token },
    });
    const [done, exhausted, retrying, running, recent] = await storage.jobs.enqueue([
      leased(old, 'lease_done'),
      leased(old, 'lease_exhausted'),
      leased(old, 'lease_retrying'),
      leased(old, 'lease_running'),
      leased(NOW - DAY, 'lease_recent'),
    ]);
    const attempt = (startedAt: number, statusCode: number) => ({
      series: 1,
      number: 1,
      startedAt,
      durationMs: 5,
      statusCode,
    });
    const end = (
      job: { id: string },
      token: string,
      outcome: { state: 'succeeded' | 'exhausted' } | { runAt: number; lastError: string },
      at: number,
      code: number,
    ) => storage.jobs.finishAttempt({ id: job.id, leaseToken: token }, attempt(at, code), outcome, at);
    expect(await end(done!, 'lease_done', { state: 'succeeded' }, old, 200)).toBe(true);
    expect(await end(exhausted!, 'lease_exhausted', { state: 'exhausted' }, old, 500)).toBe(true);
    // Old, but back in the queue for a retry (e.g. the host was down): not final, kept.
    expect(
      await end(retrying!, 'lease_retrying', { runAt: old + 1000, lastError: 'HTTP 500' }, old, 500),
    ).toBe(true);
    expect(await end(recent!, 'lease_recent', { state: 'succeeded' }, NOW - DAY, 200)).toBe(true);

    const cut = NOW - 30 * DAY;
    expect(await storage.jobs.prune(cut, 1)).toBe(1); // the batch size is respected
    expect(await storage.jobs.prune(cut, 100)).toBe(1);
    expect(await storage.jobs.prune(cut, 100)).toBe(0);
    expect(await storage.jobs.getJob(done!.id)).toBeNull();
    expect(await storage.jobs.getJob(exhausted!.id)).toBeNull();
    // Their attempts went with them: a job made again under the same id has none.
    await storage.jobs.enqueue([{ id: done!.id, kind: 'deliver', installationId, payload: {} }]);
    expect((await storage.jobs.getJob(done!.id))?.attempts).toEqual([]);
    // Old but not final (queued for a retry; running under a lease): kept. Recent: kept, attempts too.
    expect((await storage.jobs.getJob(retrying!.id))?.state).toBe('queued');
    expect((await storage.jobs.getJob(running!.id))?.state).toBe('running');
    expect(await storage.jobs.getJob(recent!.id)).toMatchObject({
      state: 'succeeded',
      attempts: [{ statusCode: 200 }],
    });
    const listed = await storage.jobs.listDeliveries(installationId, { limit: 500 });
    expect(listed.items.map((j) => j.id).sort()).toEqual(
      [done!.id, retrying!.id, running!.id, recent!.id].sort(),
    );
  });

  it('events.prune and invocationLogs.prune delete rows older than the cut, oldest first, in batches', async () => {
    const { storage } = ctx();
    for (const [i, age] of [50, 40, 31, 29, 1].entries()) {
      await storage.events.insertIfAbsent({
        eventId: `evt_${i}`,
        type: 'site_view',
        payload: { i },
        siteId: 's',
        receivedAt: NOW - age * DAY,
      });
      await storage.invocationLogs.insert(invocationLogInput(NOW - age * DAY));
    }
    const cut = NOW - 30 * DAY;
    expect(await storage.events.prune(cut, 2)).toBe(2);
    expect(await storage.events.get('evt_0')).toBeNull(); // oldest first
    expect(await storage.events.get('evt_1')).toBeNull();
    expect(await storage.events.get('evt_2')).not.toBeNull();
    expect(await storage.events.prune(cut, 2)).toBe(1);
    expect(await storage.events.prune(cut, 2)).toBe(0);
    expect(await storage.events.get('evt_3')).not.toBeNull();
    // An id pruned is an id accepted again (idempotency lasts as long as retention).
    const again = await storage.events.insertIfAbsent({
      eventId: 'evt_0',
      type: 'site_view',
      payload: {},
      siteId: 's',
    });
    expect(again.inserted).toBe(true);

    expect(await storage.invocationLogs.prune(cut, 10)).toBe(3);
    const left = await storage.invocationLogs.list('inst_1', { limit: 10 });
    expect(left.map((l) => l.createdAt)).toEqual([NOW - DAY, NOW - 29 * DAY]);

    for (const bad of [0, -1, 1.5]) {
      const error = await storage.events.prune(cut, bad).catch((e: unknown) => e);
      expect(isStorageError(error, 'invalid')).toBe(true);
    }
  });
}
