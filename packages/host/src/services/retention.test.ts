import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invocationLogInput } from '../storage/contract/fixtures.js';
import type { Storage } from '../storage/index.js';
import { pruneOnce, startRetention } from './retention.js';
import { captureLogs, openTempStorage, removeTempStorage } from './test-support.js';

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;
let dir: string;
let storage: Storage;

beforeEach(async () => {
  ({ dir, storage } = await openTempStorage('retention-'));
});
afterEach(() => removeTempStorage(dir, storage));

/** `n` events, finished deliveries (with an attempt) and invocation logs, all `age` days old. */
async function seed(n: number, age: number, tag: string) {
  const at = NOW - age * DAY;
  for (let i = 0; i < n; i++) {
    await storage.events.insertIfAbsent({
      eventId: `evt_${tag}${i}`,
      type: 'site_view',
      payload: {},
      siteId: 's',
      receivedAt: at,
    });
    const token = `lease_${tag}${i}`;
    const [job] = await storage.jobs.enqueue([
      {
        kind: 'deliver',
        installationId: 'inst_1',
        payload: {},
        runAt: at,
        lease: { until: at + 1000, token },
      },
    ]);
    await storage.jobs.finishAttempt(
      { id: job!.id, leaseToken: token },
      { series: 1, number: 1, startedAt: at, durationMs: 1, statusCode: 200 },
      { state: 'succeeded' },
      at,
    );
    await storage.invocationLogs.insert(invocationLogInput(at));
  }
}

const count = async () => ({
  jobs: (await storage.jobs.listDeliveries('inst_1', { limit: 500 })).items.length,
  logs: (await storage.invocationLogs.list('inst_1', { limit: 1000 })).length,
});

describe('pruneOnce', () => {
  it('deletes everything older than the cut, batch after batch, and keeps the rest', async () => {
    await seed(7, 40, 'old');
    await seed(3, 5, 'new');
    // Batches of 2: 7 old rows of each kind take 4 batches; all go.
    expect(await pruneOnce(storage, NOW - 30 * DAY, 2)).toEqual({
      jobs: 7,
      events: 7,
      logs: 7,
      audit: 0,
      portalSessions: 0,
    });
    expect(await count()).toEqual({ jobs: 3, logs: 3 });
    expect(await storage.events.get('evt_old0')).toBeNull();
    expect(await storage.events.get('evt_new2')).not.toBeNull();
    expect(await pruneOnce(storage, NOW - 30 * DAY, 2)).toMatchObject({ jobs: 0, events: 0, logs: 0 });
  });

  it('deletes audit entries past the audit retention and portal sessions expired over a day ago', async () => {
    const entry = (id: string, at: number) => ({
      id,
      at,
      actor: 'operator',
      actorOrganization: null,
      tokenId: null,
      tokenName: null,
      organizationId: 'acme',
      action: 'installation.pause',
      resourceType: 'installation',
      resourceId: 'inst_1',
      changes: {},
    });
    await storage.audit.append(entry('aud_0old', NOW - 400 * DAY));
    await storage.audit.append(entry('aud_1new', NOW - 10 * DAY));
    const session = (id: string, expiresAt: number) =>
      storage.accessTokens.createSession({
        id,
        tokenHash: `hash_${id}`,
        organizationId: null,
        installationId: 'inst_1',
        expiresAt,
        createdBy: 'operator',
      });
    await session('pps_gone', NOW - 2 * DAY);
    await session('pps_recent', NOW - 60_000);
    const pruned = await pruneOnce(storage, null, 2, { before: NOW - 365 * DAY, now: NOW });
    expect(pruned).toEqual({ jobs: 0, events: 0, logs: 0, audit: 1, portalSessions: 1 });
    expect((await storage.audit.list()).map((e) => e.id)).toEqual(['aud_1new']);
    expect(await storage.accessTokens.getSession('pps_gone')).toBeNull();
    expect(await storage.accessTokens.getSession('pps_recent')).not.toBeNull();
    // audit retention off: nothing of the log goes
    expect((await pruneOnce(storage, null, 2, { before: null, now: NOW })).audit).toBe(0);
  });
});

describe('startRetention', () => {
  it('prunes on its timer with the configured age, logs what it deleted, and stops', async () => {
    await seed(2, 40, 'old');
    await seed(1, 5, 'new');
    const { lines, logger } = captureLogs();
    const retention = startRetention({
      storage,
      logger,
      retentionMs: 30 * DAY,
      firstDelayMs: 10,
      intervalMs: 50,
      now: () => NOW,
    });
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.msg === 'retention: deleted old records') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await retention.stop();
    expect(lines.find((l) => l.msg === 'retention: deleted old records')).toMatchObject({
      jobs: 2,
      events: 2,
      logs: 2,
      before: new Date(NOW - 30 * DAY).toISOString(),
    });
    expect(await count()).toEqual({ jobs: 1, logs: 1 });
    // Stopped: new old rows stay.
    await seed(1, 40, 'later');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await count()).toEqual({ jobs: 2, logs: 2 });
  });

  it('logs a failed run and tries again at the next one', async () => {
    const { lines, logger } = captureLogs();
    let calls = 0;
    const failing = {
      ...storage,
      jobs: {
        ...storage.jobs,
        prune: async () => {
          calls++;
          if (calls === 1) throw new Error('database is locked');
          return 0;
        },
      },
    } as Storage;
    const retention = startRetention({
      storage: failing,
      logger,
      retentionMs: DAY,
      firstDelayMs: 5,
      intervalMs: 20,
    });
    const deadline = Date.now() + 5000;
    while (calls < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await retention.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(lines.find((l) => l.level === 50)).toMatchObject({
      msg: 'retention: pruning failed; the next run tries again',
    });
  });
});
