import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryPort } from '../delivery/host/port.js';
import { DeliverySlots } from '../delivery/host/slots.js';
import { reserveHandOff } from '../delivery/host/thread.js';
import { type JobRecord, openStorage, type Storage } from '../storage/index.js';
import type { HostContext } from './context.js';
import { acceptEvent } from './events.js';
import { installSpaceWebhook, openTempStorage, removeTempStorage, testContext } from './test-support.js';

let dir: string;
let storage: Storage;
let ctx: HostContext;
/** The group writes the service made (`events.insertWithJobs`: one statement on PostgreSQL). */
let writes: number;
/** The routing reads it made (`installations.routes`). */
let routeReads: number;
let wakeUps: number;

beforeEach(async () => {
  ({ dir, storage } = await openTempStorage('accept-'));
  writes = 0;
  routeReads = 0;
  wakeUps = 0;
  // The real storage, counting the group writes and the routing reads the service makes.
  const counted: Storage = {
    ...storage,
    events: {
      ...storage.events,
      insertWithJobs: (entries, now, routedAt) => {
        writes++;
        return storage.events.insertWithJobs(entries, now, routedAt);
      },
    },
    installations: {
      ...storage.installations,
      routes: (scope) => {
        routeReads++;
        return storage.installations.routes(scope);
      },
    },
  };
  ctx = await testContext(dir, counted, {
    notify: { deliveries: () => wakeUps++, invocations: () => undefined },
  });
  await installSpaceWebhook(storage, 'sp1');
  writes = 0;
});

afterEach(() => removeTempStorage(dir, storage));

const event = (n: number) => ({
  type: 'space_content_updated' as const,
  spaceId: 'sp1',
  revisionId: `rev_${n}`,
});

it('concurrent events share one write, and each is stored with its delivery', async () => {
  const results = await Promise.all(Array.from({ length: 40 }, (_, n) => acceptEvent(ctx, event(n))));
  expect(writes).toBe(1);
  expect(wakeUps).toBe(1);
  expect(new Set(results.map((r) => r.eventId)).size).toBe(40);
  for (const result of results) {
    expect(result).toMatchObject({ duplicate: false, jobs: 1 });
    expect(await storage.events.get(result.eventId)).toMatchObject({
      type: 'space_content_updated',
      spaceId: 'sp1',
    });
  }
  const installation = (await storage.installations.list())[0];
  const page = await storage.jobs.listDeliveries(installation?.id ?? '', { limit: 100 });
  expect(page.items.map((d) => d.eventId).sort()).toEqual(results.map((r) => r.eventId).sort());
});

it('the same eventId twice in one group: stored once, the second reported as a duplicate', async () => {
  const [a, b] = await Promise.all([
    acceptEvent(ctx, { ...event(1), eventId: 'evt_same' }),
    acceptEvent(ctx, { ...event(2), eventId: 'evt_same' }),
  ]);
  expect(writes).toBe(1);
  expect(a).toEqual({ eventId: 'evt_same', duplicate: false, jobs: 1 });
  expect(b).toEqual({ eventId: 'evt_same', duplicate: true, jobs: 0 });
  expect((await storage.events.get('evt_same'))?.payload).toMatchObject({ revisionId: 'rev_1' });
});

it('an event accepted later (another turn) gets its own write, and a repeat changes nothing', async () => {
  const first = await acceptEvent(ctx, event(1));
  const again = await acceptEvent(ctx, { ...event(9), eventId: first.eventId });
  expect(writes).toBe(2);
  expect(again).toEqual({ eventId: first.eventId, duplicate: true, jobs: 0 });
  expect((await storage.events.get(first.eventId))?.payload).toMatchObject({ revisionId: 'rev_1' });
});

describe('routes kept in memory, checked at each write', () => {
  it('a scope is read once while nothing changes', async () => {
    for (let n = 0; n < 3; n++) await acceptEvent(ctx, event(n));
    await acceptEvent(ctx, { ...event(3), spaceId: 'sp2' });
    await acceptEvent(ctx, event(4));
    expect(writes).toBe(5);
    expect(routeReads).toBe(2); // sp1 once, sp2 once
  });

  it('a change made elsewhere (another host on the database) is seen at the next write, which routes again', async () => {
    const first = await acceptEvent(ctx, event(1));
    expect(first.jobs).toBe(1);
    // Another Storage on the same database file: what another process would change.
    const other = await openStorage({ sqlitePath: join(dir, 'p.db') });
    try {
      const added = await installSpaceWebhook(other, 'sp1', 'https://example.com/added');
      const second = await acceptEvent(ctx, event(2));
      expect(second.jobs).toBe(2); // the cached routes were stale: not stored by them
      expect(writes).toBe(3); // first event; the stale write (stored nothing); the write routed again
      expect(routeReads).toBe(2);
      expect((await storage.jobs.listDeliveries(added.id)).items.map((d) => d.eventId)).toEqual([
        second.eventId,
      ]);
      await other.installations.delete(added.id);
      expect((await acceptEvent(ctx, event(3))).jobs).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('after three stale writes in a row, the group is stored by routes read just before, unchecked', async () => {
    const routedAt: Array<number | null | undefined> = [];
    const churning: Storage = {
      ...storage,
      events: {
        ...storage.events,
        // As if installations changed before every write.
        insertWithJobs: async (entries, now, epoch) => {
          routedAt.push(epoch);
          if (epoch !== null && epoch !== undefined) return { stale: true, epoch: epoch + 1 };
          return storage.events.insertWithJobs(entries, now, epoch);
        },
      },
    };
    const accepted = await acceptEvent({ ...ctx, storage: churning }, event(1));
    expect(accepted).toMatchObject({ duplicate: false, jobs: 1 });
    expect(routedAt).toHaveLength(4);
    expect(routedAt.slice(0, 3).every((epoch) => typeof epoch === 'number')).toBe(true);
    expect(routedAt[3]).toBeNull();
    expect(await storage.events.get(accepted.eventId)).not.toBeNull();
  });
});

describe('hand-over of first attempts to the delivery thread', () => {
  /** A hand-over on real shared slots, as the delivery thread's runner builds it, recording what it sends. */
  function handOffOn(slots: DeliverySlots) {
    const sent: JobRecord[][] = [];
    const slow = new Set<string>();
    const delivery: DeliveryPort = {
      handOff: {
        reserve: (ids) =>
          reserveHandOff(
            slots,
            ids,
            (id) => slow.has(id),
            (jobs) => sent.push(jobs),
          ),
      },
      isSlow: (id) => slow.has(id),
      slowInstallations: () => [...slow],
    };
    return { delivery, sent, slow };
  }

  async function addInstallations(count: number) {
    for (let i = 0; i < count; i++)
      await installSpaceWebhook(storage, 'sp1', `https://example.com/hook-${i}`);
  }

  it('leases as many deliveries as there are free slots, hands them over after the commit, queues the rest', async () => {
    await addInstallations(2); // 3 deliveries per event
    const slots = DeliverySlots.create();
    slots.give(2);
    slots.want(false);
    const { delivery, sent } = handOffOn(slots);
    const before = Date.now();
    const { eventId } = await acceptEvent({ ...ctx, delivery }, event(1));
    expect(sent).toHaveLength(1);
    const handed = sent[0] ?? [];
    expect(handed).toHaveLength(2);
    const stored = await Promise.all(handed.map((job) => storage.jobs.getJob(job.id)));
    for (const job of stored) {
      expect(job).toMatchObject({ eventId, state: 'running', attempt: 0 });
      expect(job?.leaseToken).toBe(handed[0]?.leaseToken);
      expect(job?.leaseUntil).toBeGreaterThanOrEqual(before + ctx.config.deliveryTimeoutMs);
    }
    const installations = await storage.installations.list();
    const all = (await Promise.all(installations.map((i) => storage.jobs.listDeliveries(i.id)))).flatMap(
      (page) => page.items,
    );
    expect(all.map((job) => job.state).sort()).toEqual(['queued', 'running', 'running']);
    expect(wakeUps).toBe(1); // for the queued one
    expect(slots.free).toBe(0);
  });

  it('leases nothing while the delivery thread wants its slots for queued work', async () => {
    const slots = DeliverySlots.create();
    slots.give(4); // still wanted: create() starts wanted
    const { delivery, sent } = handOffOn(slots);
    const { eventId } = await acceptEvent({ ...ctx, delivery }, event(1));
    expect(sent).toEqual([]);
    const installation = (await storage.installations.list())[0];
    const page = await storage.jobs.listDeliveries(installation?.id ?? '');
    expect(page.items.find((job) => job.eventId === eventId)?.state).toBe('queued');
    expect(wakeUps).toBe(1);
    expect(slots.free).toBe(4);
  });

  it('a write that fails gives the slots back and stores nothing', async () => {
    const slots = DeliverySlots.create();
    slots.give(2);
    slots.want(false);
    const { delivery, sent } = handOffOn(slots);
    const failing: Storage = {
      ...storage,
      events: {
        ...storage.events,
        insertWithJobs: async () => {
          throw new Error('disk full');
        },
      },
    };
    await expect(
      acceptEvent({ ...ctx, storage: failing, delivery }, { ...event(1), eventId: 'evt_rolled_back' }),
    ).rejects.toThrow('disk full');
    expect(sent).toEqual([]);
    expect(slots.free).toBe(2);
    expect(await storage.events.get('evt_rolled_back')).toBeNull();
    expect(wakeUps).toBe(0);
  });

  it("holds the deliveries of installations the delivery thread marked slow, out of the claims' way", async () => {
    await addInstallations(2); // 3 installations: 3 deliveries per event
    const slots = DeliverySlots.create();
    slots.give(10);
    slots.want(false);
    const { delivery, sent, slow: slowSet } = handOffOn(slots);
    const installations = await storage.installations.list();
    const slow = installations[0]?.id ?? '';
    slowSet.add(slow); // as the delivery thread reports it
    const host = { ...ctx, delivery };
    const { eventId } = await acceptEvent(host, event(1));
    const handed = sent.flat();
    expect(handed.map((job) => job.installationId).sort()).toEqual(
      installations
        .map((i) => i.id)
        .filter((id) => id !== slow)
        .sort(),
    );
    const queued = (await storage.jobs.listDeliveries(slow)).items.filter((job) => job.eventId === eventId);
    expect(queued.map((job) => job.state)).toEqual(['held']);
    // the other installations' claims do not see it; its own share takes it
    expect(
      await storage.jobs.claim({ kinds: ['deliver'], limit: 10, leaseMs: 1000, now: Date.now() }),
    ).toEqual([]);
    const mine = await storage.jobs.claimHeld({
      installationId: slow,
      limit: 5,
      leaseMs: 1000,
      now: Date.now(),
    });
    expect(mine.map((job) => job.eventId)).toEqual([eventId]);
    // Held deliveries wake the delivery thread (it takes them if the installation has room under its
    // share), at most once per 50 ms: a second group right after waits for the end of the window.
    expect(wakeUps).toBe(1);
    expect(slots.free).toBe(8);
    const started = Date.now();
    await acceptEvent(host, event(2));
    expect(wakeUps).toBe(1);
    await expect.poll(() => wakeUps, { timeout: 2_000, interval: 5 }).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20);
  });
});
