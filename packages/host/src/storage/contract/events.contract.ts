import { expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { EventWithJobs, InsertWithJobsResult } from '../repos/events.js';
import type { EnqueueInput } from '../repos/jobs-api.js';
import type { StorageTx } from '../storage.js';
import { type Ctx, installationInput, integrationInput } from './fixtures.js';

/** The result of a write that was not stale (a failed expectation otherwise). */
function stored(result: InsertWithJobsResult): Extract<InsertWithJobsResult, { stale: false }> {
  if (result.stale) throw new Error(`stored nothing: routing stale (epoch ${result.epoch})`);
  return result;
}

export function eventsContract(ctx: () => Ctx): void {
  it('insertIfAbsent is idempotent on eventId and returns the stored event', async () => {
    const { storage } = ctx();
    const first = await storage.events.insertIfAbsent({
      eventId: 'evt_1',
      type: 'site_view',
      payload: { a: 1 },
      siteId: 'st1',
      receivedAt: 1_700_000_000_000,
    });
    expect(first.inserted).toBe(true);
    expect(first.event).toEqual({
      eventId: 'evt_1',
      type: 'site_view',
      payload: { a: 1 },
      spaceId: null,
      siteId: 'st1',
      receivedAt: 1_700_000_000_000,
    });
    const again = await storage.events.insertIfAbsent({
      eventId: 'evt_1',
      type: 'site_view',
      payload: { a: 2 },
    });
    expect(again).toEqual({ inserted: false, event: first.event });
    expect(await storage.events.get('evt_1')).toEqual(first.event);
  });

  it('insertManyIfAbsent stores a group in one go: new ones inserted, known and repeated ones not', async () => {
    const { storage } = ctx();
    await storage.events.insertIfAbsent({ eventId: 'evt_known', type: 'site_view', payload: { a: 1 } });
    const group = [
      { eventId: 'evt_new_1', type: 'site_view', payload: { n: 1 }, siteId: 'site_1', receivedAt: 10 },
      { eventId: 'evt_known', type: 'site_view', payload: { a: 2 } },
      { eventId: 'evt_new_2', type: 'space_view', payload: { n: 2 }, spaceId: 'space_1', receivedAt: 11 },
      { eventId: 'evt_new_1', type: 'site_view', payload: { n: 3 } },
      // past one statement's chunk of 100 rows
      ...Array.from({ length: 150 }, (_v, i) => ({ eventId: `evt_bulk_${i}`, type: 't', payload: { i } })),
    ];
    const inserted = await storage.events.insertManyIfAbsent(group);
    expect(inserted.slice(0, 4)).toEqual([true, false, true, false]);
    expect(inserted.slice(4).every(Boolean)).toBe(true);
    expect(await storage.events.get('evt_new_1')).toMatchObject({
      payload: { n: 1 },
      siteId: 'site_1',
      receivedAt: 10,
    });
    expect(await storage.events.get('evt_known')).toMatchObject({ payload: { a: 1 } });
    expect(await storage.events.get('evt_bulk_149')).toMatchObject({ payload: { i: 149 } });
    expect(
      await storage.events.insertManyIfAbsent([{ eventId: 'evt_new_2', type: 't', payload: {} }]),
    ).toEqual([false]);
    // a bad value in the group is refused and stores none of it
    const bad = await storage.events
      .insertManyIfAbsent([
        { eventId: 'evt_ok', type: 't', payload: {} },
        { eventId: 'evt_bad', type: 't', payload: {}, receivedAt: 1.5 },
      ])
      .catch((e: unknown) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
    expect(await storage.events.get('evt_ok')).toBeNull();
  });

  it('insertWithJobs stores a group with its jobs at once; a known or repeated event stores no job', async () => {
    const { storage } = ctx();
    await storage.events.insertIfAbsent({ eventId: 'evt_known', type: 'site_view', payload: { a: 1 } });
    const deliver = (n: number, extra: Partial<EnqueueInput> = {}): EnqueueInput => ({
      kind: 'deliver',
      installationId: 'inst_1',
      payload: { n },
      ...extra,
    });
    const lease = { until: 5_000, token: 'lease_token_1' };
    const { inserted, jobs } = stored(
      await storage.events.insertWithJobs(
        [
          {
            event: { eventId: 'evt_a', type: 'site_view', payload: { e: 'a' }, siteId: 's1' },
            jobs: [deliver(1, { lease }), deliver(2)],
          },
          { event: { eventId: 'evt_known', type: 'site_view', payload: { a: 2 } }, jobs: [deliver(3)] },
          {
            event: { eventId: 'evt_b', type: 't', payload: {} },
            jobs: [deliver(4, { hold: true, runAt: 2_000 })],
          },
          { event: { eventId: 'evt_a', type: 'site_view', payload: { e: 'again' } }, jobs: [deliver(5)] },
          { event: { eventId: 'evt_c', type: 't', payload: {} }, jobs: [] },
        ],
        1_000,
      ),
    );
    expect(inserted).toEqual([true, false, true, false, true]);
    expect(await storage.events.insertWithJobs([])).toEqual({ stale: false, inserted: [], jobs: [] });
    expect(jobs.map((job) => [job.eventId, job.payload, job.state, job.runAt, job.leaseToken])).toEqual([
      ['evt_a', { n: 1 }, 'running', 1_000, 'lease_token_1'],
      ['evt_a', { n: 2 }, 'queued', 1_000, null],
      ['evt_b', { n: 4 }, 'held', 2_000, null],
    ]);
    // What is stored is what was returned, and nothing else.
    for (const job of jobs) expect(await storage.jobs.getJob(job.id)).toMatchObject({ ...job, attempts: [] });
    expect(await storage.jobs.queueStats(1_000)).toEqual([
      expect.objectContaining({ kind: 'deliver', queued: 1, held: 1, running: 1 }),
    ]);
    expect(await storage.events.get('evt_a')).toMatchObject({
      payload: { e: 'a' },
      siteId: 's1',
      receivedAt: 1_000,
    });
    expect(await storage.events.get('evt_known')).toMatchObject({ payload: { a: 1 } });
    expect(await storage.events.get('evt_c')).not.toBeNull();

    // A group too big for one statement (33 000 bound values) is stored whole as well.
    const many = stored(
      await storage.events.insertWithJobs(
        [
          {
            event: { eventId: 'evt_many', type: 't', payload: {} },
            jobs: Array.from({ length: 3_000 }, (_v, i) => deliver(i)),
          },
        ],
        1_000,
      ),
    );
    expect(many.inserted).toEqual([true]);
    expect(many.jobs).toHaveLength(3_000);
    expect(await storage.jobs.getJob(many.jobs[2_999]!.id)).toMatchObject({
      eventId: 'evt_many',
      payload: { n: 2_999 },
    });

    // A bad value anywhere is refused and stores none of the group: neither an event nor a job.
    const bad = await storage.events
      .insertWithJobs([
        { event: { eventId: 'evt_ok', type: 't', payload: {} }, jobs: [deliver(6)] },
        { event: { eventId: 'evt_bad_job', type: 't', payload: {} }, jobs: [deliver(7, { runAt: 1.5 })] },
      ])
      .catch((e: unknown) => e);
    expect(isStorageError(bad, 'invalid')).toBe(true);
    expect(await storage.events.get('evt_ok')).toBeNull();
    expect(await storage.events.get('evt_bad_job')).toBeNull();
    expect((await storage.jobs.queueStats(1_000))[0]).toMatchObject({ queued: 3_001 });
  });

  it('insertWithJobs with routedAt stores the group only while the routing epoch is the one it was routed at', async () => {
    const { storage } = ctx();
    await storage.integrations.publish(integrationInput());
    const routed = await storage.installations.routes({ spaceId: 'sp1' });
    expect(routed.epoch).toEqual(expect.any(Number));
    const group = (eventId: string, jobs: number): EventWithJobs[] => [
      {
        event: { eventId, type: 't', payload: {}, spaceId: 'sp1' },
        jobs: Array.from({ length: jobs }, (_v, n) => ({
          kind: 'deliver',
          installationId: 'inst_x',
          payload: { n },
        })),
      },
    ];
    // Current: stored, as without the check (the one-statement path, and the transaction path of a big group).
    for (const [eventId, jobs] of [
      ['evt_now', 1],
      ['evt_now_big', 3_000],
    ] as const) {
      const result = stored(await storage.events.insertWithJobs(group(eventId, jobs), 1_000, routed.epoch));
      expect(result.inserted).toEqual([true]);
      expect(result.jobs).toHaveLength(jobs);
    }
    // A duplicate at the current epoch is a duplicate, not stale.
    expect(await storage.events.insertWithJobs(group('evt_now', 1), 1_000, routed.epoch)).toEqual({
      stale: false,
      inserted: [false],
      jobs: [],
    });

    // Each kind of routing change moves the epoch on; a group routed before it stores nothing.
    const inst = await storage.installations.create(installationInput({ spaceId: 'sp1' }));
    await storage.webhookSecrets.set(inst.id, 'whsec_old', 1_000);
    const epochs = [routed.epoch!, (await storage.installations.routes({ spaceId: 'sp1' })).epoch!];
    expect(
      (await storage.installations.routes({ spaceId: 'sp1' })).routes.map((r) => r.installation.id),
    ).toEqual([inst.id]);
    await storage.installations.update(inst.id, { configuration: { url: 'https://example.com/b' } });
    epochs.push((await storage.installations.routes({ spaceId: 'sp1' })).epoch!);
    await storage.webhookSecrets.rotate(inst.id, 'whsec_new', 5_000, 6_000);
    epochs.push((await storage.installations.routes({ spaceId: 'sp1' })).epoch!);
    await storage.integrations.publish(integrationInput({ version: '2.0.0' }));
    epochs.push((await storage.installations.routes({ spaceId: 'sp1' })).epoch!);
    await storage.installations.delete(inst.id);
    const current = (await storage.installations.routes({ spaceId: 'sp1' })).epoch!;
    epochs.push(current);
    for (let i = 1; i < epochs.length; i++) expect(epochs[i]).toBeGreaterThan(epochs[i - 1]!);

    for (const [eventId, jobs] of [
      ['evt_late', 1],
      ['evt_late_big', 3_000],
    ] as const) {
      expect(await storage.events.insertWithJobs(group(eventId, jobs), 1_000, routed.epoch)).toEqual({
        stale: true,
        epoch: current,
      });
      expect(await storage.events.get(eventId)).toBeNull();
    }
    expect((await storage.jobs.queueStats(1_000))[0]).toMatchObject({ queued: 3_001 });
    // Routed again at the current epoch, it is stored.
    expect(
      stored(await storage.events.insertWithJobs(group('evt_late', 1), 1_000, current)).inserted,
    ).toEqual([true]);
    // A scope no installation can reach needs no epoch, and reads nothing.
    expect(await storage.installations.routes({})).toEqual({ epoch: null, routes: [] });
  });

  it('a transaction that throws leaves neither the event nor its jobs', async () => {
    const { storage } = ctx();
    const inst = await storage.installations.create(installationInput());
    let jobId = '';
    const error = await storage
      .transaction(async (tx) => {
        await tx.events.insertIfAbsent({ eventId: 'evt_rb', type: 'space_content_updated', payload: {} });
        const [job] = await tx.jobs.enqueue([
          { kind: 'deliver', installationId: inst.id, eventId: 'evt_rb', payload: {} },
        ]);
        jobId = job!.id;
        expect(await tx.jobs.getJob(jobId)).not.toBeNull();
        throw new Error('boom');
      })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('boom');
    expect(await storage.events.get('evt_rb')).toBeNull();
    expect(await storage.jobs.getJob(jobId)).toBeNull();
    expect(await storage.jobs.nextDueAt(['deliver'])).toBeNull();

    const committed = await storage.transaction(async (tx) => {
      const { inserted } = await tx.events.insertIfAbsent({ eventId: 'evt_ok', type: 't', payload: {} });
      const jobs = inserted
        ? await tx.jobs.enqueue([{ kind: 'deliver', installationId: inst.id, payload: {} }])
        : [];
      return jobs[0]!.id;
    });
    expect(await storage.events.get('evt_ok')).not.toBeNull();
    expect((await storage.jobs.getJob(committed))?.state).toBe('queued');
  });

  it('nested transactions are savepoints; the handle works only inside its callback', async () => {
    const { storage } = ctx();
    let leaked: StorageTx | undefined;
    await storage.transaction(async (tx) => {
      leaked = tx;
      await tx.settings.set('outer', '1');
      await tx
        .transaction(async (inner) => {
          await inner.settings.set('inner', '1');
          throw new Error('inner fails');
        })
        .catch(() => undefined);
      await tx.transaction(async (inner) => inner.settings.set('inner2', '1'));
      const misuse = await storage.settings.get('outer').catch((e: unknown) => e);
      expect(isStorageError(misuse, 'invalid')).toBe(true);
    });
    expect(await storage.settings.get('outer')).toBe('1');
    expect(await storage.settings.get('inner')).toBeNull();
    expect(await storage.settings.get('inner2')).toBe('1');
    const closed = await leaked!.settings.get('outer').catch((e: unknown) => e);
    expect(isStorageError(closed, 'transaction_closed')).toBe(true);
  });

  it('work outside a transaction never becomes part of it (no interleaving)', async () => {
    const { storage } = ctx();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const tx = storage
      .transaction(async (t) => {
        await t.events.insertIfAbsent({ eventId: 'evt_in_tx', type: 't', payload: {} });
        await sleep(60);
        throw new Error('rollback');
      })
      .catch(() => 'rolled back');
    await sleep(10);
    const outside = await storage.events.insertIfAbsent({ eventId: 'evt_outside', type: 't', payload: {} });
    expect(outside.inserted).toBe(true);
    expect(await tx).toBe('rolled back');
    expect(await storage.events.get('evt_in_tx')).toBeNull();
    expect(await storage.events.get('evt_outside')).not.toBeNull();
  });

  it('concurrent transactions all commit', async () => {
    const { storage } = ctx();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storage.transaction(async (tx) => {
          await tx.events.insertIfAbsent({ eventId: `evt_c${i}`, type: 't', payload: { i } });
          await tx.settings.set(`k${i}`, String(i));
        }),
      ),
    );
    for (let i = 0; i < 8; i++) {
      expect((await storage.events.get(`evt_c${i}`))?.payload).toEqual({ i });
      expect(await storage.settings.get(`k${i}`)).toBe(String(i));
    }
  });
}
