// A job's home (docs/architecture.md, "Claims"): on PostgreSQL the process that queued or last claimed a job
// has its first attempts to itself for HOME_GRACE_MS; other hosts take them after that, retries and
// expired leases at once. SQLite (one host) writes no home and claims as before.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { migratedDatabase } from '../contract/fixtures.js';
import {
  ASK_GAP_MS,
  HELP_WINDOW_MS,
  HOME_GRACE_MS,
  HomeHelp,
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

  it("takes another home's first attempts only after the grace or as help (PostgreSQL), its own and homeless ones at once", async () => {
    const sql = await open(dialect);
    const queue = queueRepo(sql);
    const [own, foreign, helped, homeless, retry] = await queue.enqueue(
      Array.from({ length: 5 }, (_, i) => ({
        kind: 'deliver' as const,
        installationId: `inst_${i}`,
        payload: {},
      })),
      1_000,
    );
    await sql.run('UPDATE jobs SET home = ? WHERE id IN (?, ?, ?)', [
      OTHER,
      foreign!.id,
      helped!.id,
      retry!.id,
    ]);
    await sql.run('UPDATE jobs SET home = NULL WHERE id = ?', [homeless!.id]);
    // Another home's retry is not held back: its time is a promise.
    await sql.run('UPDATE jobs SET attempt = 1 WHERE id = ?', [retry!.id]);

    const first = await claim(sql, 1_000);
    const expected = homed ? [own, homeless, retry] : [own, foreign, helped, homeless, retry];
    expect(first.map((job) => job.id).sort()).toEqual(expected.map((job) => job!.id).sort());
    // What is left is not due for this process: the claim says so, and the next due time leaves it out (the
    // next is the end of the leases just taken): its home delivers it, or this host's claims find it later.
    if (!homed) return;
    expect(first.moreDue).toBe(false);
    expect(await queue.nextDueAt(['deliver'])).toBe(1_000 + 60_000);
    expect(await claim(sql, 1_000 + HOME_GRACE_MS - 1)).toEqual([]);
    // A claim answering a call for help takes it without waiting.
    const help = await queue.claim({ kinds: ['deliver'], limit: 1, leaseMs: 60_000, now: 1_001, help: true });
    expect(help.map((job) => job.id)).toEqual([[foreign!.id, helped!.id].sort()[0]]);
    // A claim looking ahead (a delivery claim) reaches the other that much earlier.
    const ahead = await claim(sql, 1_000 + HOME_GRACE_MS - 10, 1_000 + HOME_GRACE_MS);
    expect(ahead.map((job) => job.id)).toEqual([[foreign!.id, helped!.id].sort()[1]]);
    expect((await homes(sql)).get(ahead[0]!.id)).toBe(PROCESS_TAG);
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

describe('wakeOnSignals and HomeHelp', () => {
  afterEach(() => vi.useRealTimers());

  it("answers another host's work due now as help, and arms the timer for work due later", () => {
    let handlers: QueueListenerHandlers | undefined;
    const calls: (string | number)[] = [];
    const listener = wakeOnSignals(
      (_kind, given) => {
        handlers = given;
        return { close: async () => undefined };
      },
      'deliver',
      {
        notify: () => calls.push('notify'),
        notifyDue: (at) => calls.push(at),
        help: () => calls.push('help'),
      },
      () => undefined,
    );
    const now = Date.now();
    handlers!.onSignal({ kind: 'deliver', dueAt: now - 5 });
    handlers!.onSignal({ kind: 'deliver', dueAt: now + 60_000 });
    handlers!.onSignal({ kind: 'invoke', dueAt: now - 5 });
    handlers!.onResync();
    expect(calls).toEqual(['help', now + 60_000, 'notify']);
    void listener.close();
  });

  it('helps only with room and only in the next moments; asks when two claims in a row filled its slots and left work behind', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let room = false;
    let woken = 0;
    let asked = 0;
    const help = new HomeHelp(
      () => room,
      () => {
        woken += 1;
      },
      async () => {
        asked += 1;
      },
      () => undefined,
    );
    help.asked();
    expect([help.active, woken]).toEqual([false, 0]);
    room = true;
    help.asked();
    expect([help.active, woken]).toEqual([true, 1]);
    vi.advanceTimersByTime(HELP_WINDOW_MS + 1);
    expect(help.active).toBe(false);

    help.claimed(3, 4, true); // room left: not behind
    help.claimed(4, 4, false); // took the last due job
    help.claimed(4, 4, null); // SQLite: does not count
    expect(asked).toBe(0);
    // Behind once, then caught up: the next claim took what was left; no call for help.
    help.claimed(4, 4, true);
    help.claimed(2, 4, false);
    expect(asked).toBe(0);
    // Behind twice in a row: asks.
    help.claimed(4, 4, true);
    help.claimed(4, 4, true);
    expect(asked).toBe(1);
    help.claimed(4, 4, true); // at most once per ASK_GAP_MS
    expect(asked).toBe(1);
    vi.advanceTimersByTime(ASK_GAP_MS);
    help.claimed(4, 4, true);
    expect(asked).toBe(2);
    // A claim that took nothing (a slow endpoint's share full, another host first) neither counts nor
    // breaks a run: behind, empty, behind asks. (Seen with one slot and a slow endpoint: every other claim
    // of the home came back empty, and it never asked.)
    vi.advanceTimersByTime(ASK_GAP_MS);
    help.claimed(2, 4, false); // caught up: the run starts again
    help.claimed(1, 1, true);
    help.claimed(0, 1, true);
    expect(asked).toBe(2);
    help.claimed(1, 1, true);
    expect(asked).toBe(3);
  });
});
