// A job's home (docs/architecture.md, "Claims"): on PostgreSQL the process that queued or last claimed a job
// has its first attempts to itself for HOME_GRACE_MS; other hosts take them after that, retries and
// expired leases at once. SQLite (one host) writes no home and claims as before.
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../contract/fixtures.js';
import {
  HOME_GRACE_MS,
  homeOf,
  PROCESS_TAG,
  type QueueListenerHandlers,
  wakeOnSignals,
} from '../queue-signals.js';
import type { Sql } from '../sql.js';
import { deliveriesRepo } from './deliveries.js';
import { eventsRepo } from './events.js';
import { queueRepo } from './queue.js';

const OTHER = 'other-host:1';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function open(dialect: Sql['dialect']): Promise<Sql> {
  const { sql, remove } = await migratedDatabase(dialect, 'queue_home');
  cleanups.push(remove);
  return sql;
}

async function homes(sql: Sql): Promise<Map<string, string | null>> {
  const rows = await sql.all('SELECT id, home FROM jobs');
  return new Map(rows.map((row) => [String(row.id), row.home === null ? null : String(row.home)]));
}

const claim = (sql: Sql, now: number, dueBy = now) =>
  queueRepo(sql).claim({ kinds: ['deliver'], limit: 10, leaseMs: 60_000, now, dueBy });

describe.each(['sqlite', 'postgres'] as const)('%s: the home of a job', (dialect) => {
  const homed = dialect === 'postgres';

  it('queueing a job writes this process as its home, and so do a claim and a redelivery (PostgreSQL; none on SQLite)', async () => {
    const sql = await open(dialect);
    await queueRepo(sql).enqueue([{ kind: 'deliver', installationId: 'inst_a', payload: {} }], 1_000);
    const fanned = await eventsRepo(sql).insertWithJobs(
      [
        {
          event: { eventId: 'evt_1', type: 'space_content_updated', payload: {} },
          jobs: [{ kind: 'deliver', installationId: 'inst_b', payload: {} }],
        },
      ],
      1_000,
    );
    expect('jobs' in fanned && fanned.jobs).toHaveLength(1);
    expect(homeOf(dialect)).toBe(homed ? PROCESS_TAG : null);
    expect([...(await homes(sql)).values()]).toEqual([homeOf(dialect), homeOf(dialect)]);
    if (!homed) return;
    await sql.run('UPDATE jobs SET home = ?', [OTHER]);
    const taken = await claim(sql, 1_000 + HOME_GRACE_MS);
    expect(taken).toHaveLength(2);
    expect([...(await homes(sql)).values()]).toEqual([PROCESS_TAG, PROCESS_TAG]);
    expect(await queueRepo(sql).complete(taken[0]!, 'failed', 2_000)).toBe(true);
    await sql.run('UPDATE jobs SET home = ?', [OTHER]);
    await deliveriesRepo(sql).redeliver(taken[0]!.id, 3_000);
    expect((await homes(sql)).get(taken[0]!.id)).toBe(PROCESS_TAG);
  });

  it("takes another home's first attempts only after the grace (PostgreSQL), its own and homeless ones at once", async () => {
    const sql = await open(dialect);
    const queue = queueRepo(sql);
    const [own, foreign, homeless, retry] = await queue.enqueue(
      Array.from({ length: 4 }, (_, i) => ({
        kind: 'deliver' as const,
        installationId: `inst_${i}`,
        payload: {},
      })),
      1_000,
    );
    await sql.run('UPDATE jobs SET home = ? WHERE id IN (?, ?)', [OTHER, foreign!.id, retry!.id]);
    await sql.run('UPDATE jobs SET home = NULL WHERE id = ?', [homeless!.id]);
    // Another home's retry is not held back: its time is a promise.
    await sql.run('UPDATE jobs SET attempt = 1 WHERE id = ?', [retry!.id]);

    const first = await claim(sql, 1_000);
    const expected = homed ? [own, homeless, retry] : [own, foreign, homeless, retry];
    expect(first.map((job) => job.id).sort()).toEqual(expected.map((job) => job!.id).sort());
    // What is left is not due for this process: the claim says so, and the next due time is after the grace.
    if (!homed) return;
    expect(first.moreDue).toBe(false);
    expect(await queue.nextDueAt(['deliver'])).toBe(1_000 + HOME_GRACE_MS);
    expect(await claim(sql, 1_000 + HOME_GRACE_MS - 1)).toEqual([]);
    // A claim looking ahead (a delivery claim) reaches it that much earlier.
    const ahead = await claim(sql, 1_000 + HOME_GRACE_MS - 10, 1_000 + HOME_GRACE_MS);
    expect(ahead.map((job) => job.id)).toEqual([foreign!.id]);
    expect((await homes(sql)).get(foreign!.id)).toBe(PROCESS_TAG);
  });

  it("reads the next due time of its own first attempt behind another home's (PostgreSQL)", async () => {
    const sql = await open(dialect);
    const queue = queueRepo(sql);
    const [foreign] = await queue.enqueue(
      [{ kind: 'deliver', installationId: 'inst_a', payload: {} }],
      1_000,
    );
    await queue.enqueue([{ kind: 'deliver', installationId: 'inst_b', payload: {} }], 1_010);
    await sql.run('UPDATE jobs SET home = ? WHERE id = ?', [OTHER, foreign!.id]);
    expect(await queue.nextDueAt(['deliver'])).toBe(homed ? 1_010 : 1_000);
  });
});

describe('wakeOnSignals', () => {
  it("claims another host's work due now once its grace is over, work due later at its time", () => {
    let handlers: QueueListenerHandlers | undefined;
    const due: number[] = [];
    const listener = wakeOnSignals(
      (_kind, given) => {
        handlers = given;
        return { close: async () => undefined };
      },
      'deliver',
      { notify: () => due.push(-1), notifyDue: (at) => due.push(at) },
      () => undefined,
    );
    const now = Date.now();
    handlers!.onSignal({ kind: 'deliver', dueAt: now - 5 });
    handlers!.onSignal({ kind: 'deliver', dueAt: now + 60_000 });
    handlers!.onSignal({ kind: 'invoke', dueAt: now - 5 });
    expect(due).toEqual([now - 5 + HOME_GRACE_MS, now + 60_000]);
    void listener.close();
  });
});
