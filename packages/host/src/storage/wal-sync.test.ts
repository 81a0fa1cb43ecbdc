import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUSY_WINDOW_MS,
  INLINE_MAX_BUSY,
  INLINE_MAX_MS,
  nextSyncWay,
  POOL_BACK_BUSY,
  POOL_BACK_MS,
  WalSync,
  walSyncsSoFar,
} from './wal-sync.js';

/** A sync function whose calls are recorded and finished by hand. */
function manualSync() {
  const calls: Array<{ resolve(): void; reject(error: Error): void }> = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, sync };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WalSync', () => {
  it('starts a sync at once when none runs, and resolves when it ends', async () => {
    const { calls, sync } = manualSync();
    const wal = new WalSync('/x-wal', sync);
    let done = false;
    const waiting = wal.after().then(() => {
      done = true;
    });
    expect(calls).toHaveLength(1);
    await tick();
    expect(done).toBe(false); // not before the disk says so
    calls[0]?.resolve();
    await waiting;
    expect(done).toBe(true);
  });

  it('a commit made while a sync runs waits for the NEXT sync, which all such commits share', async () => {
    const { calls, sync } = manualSync();
    const wal = new WalSync('/x-wal', sync);
    const first = wal.after();
    const settled: string[] = [];
    // Three commits land while the first sync runs: it may have started before their data was written.
    const later = [wal.after(), wal.after(), wal.after()].map((p, i) =>
      p.then(() => settled.push(`later${i}`)),
    );
    expect(calls).toHaveLength(1);
    calls[0]?.resolve();
    await first;
    await tick();
    expect(settled).toEqual([]);
    expect(calls).toHaveLength(2); // one more sync for the three of them, started after the first ended
    calls[1]?.resolve();
    await Promise.all(later);
    expect(settled).toEqual(['later0', 'later1', 'later2']);
    // Idle again: the next commit starts its own sync at once.
    void wal.after();
    expect(calls).toHaveLength(3);
    calls[2]?.resolve();
  });

  it('a failed sync rejects its waiters; the next commit still gets a sync of its own', async () => {
    const { calls, sync } = manualSync();
    const wal = new WalSync('/x-wal', sync);
    const first = wal.after();
    const second = wal.after();
    calls[0]?.reject(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    await tick();
    expect(calls).toHaveLength(2);
    calls[1]?.resolve();
    await expect(second).resolves.toBeUndefined();
  });

  it('syncs a real file, and treats a missing log (checkpointed and removed) as synced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wal-sync-'));
    try {
      await writeFile(join(dir, 'db-wal'), 'frames');
      await expect(new WalSync(join(dir, 'db-wal')).after()).resolves.toBeUndefined();
      await expect(new WalSync(join(dir, 'db-wal'), { way: 'pool' }).after()).resolves.toBeUndefined();
      await expect(new WalSync(join(dir, 'missing-wal')).after()).resolves.toBeUndefined();
      // Anything else is an error the caller hears of.
      await expect(new WalSync(join(dir, 'no-such-dir', 'x', '\0bad')).after()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('nextSyncWay', () => {
  const recent = (averageMs: number, busy: number | null = 0.2) => ({ averageMs, busy });

  it('keeps syncs on the thread while the disk is fast, and moves them to the pool while it is slow', () => {
    expect(nextSyncWay('inline', recent(0.3))).toBe('inline');
    expect(nextSyncWay('inline', recent(INLINE_MAX_MS))).toBe('inline');
    expect(nextSyncWay('inline', recent(INLINE_MAX_MS + 0.01))).toBe('pool');
    // Back only well below the limit (the pool's time also counts the hand-off), so it does not flap.
    expect(nextSyncWay('pool', recent((POOL_BACK_MS + INLINE_MAX_MS) / 2))).toBe('pool');
    expect(nextSyncWay('pool', recent(POOL_BACK_MS))).toBe('pool');
    expect(nextSyncWay('pool', recent(POOL_BACK_MS - 0.01))).toBe('inline');
  });

  it('moves syncs to the pool while the thread is busy, and back once it is mostly idle', () => {
    expect(nextSyncWay('inline', recent(0.3, INLINE_MAX_BUSY))).toBe('inline');
    expect(nextSyncWay('inline', recent(0.3, INLINE_MAX_BUSY + 0.01))).toBe('pool');
    expect(nextSyncWay('pool', recent(0.3, POOL_BACK_BUSY))).toBe('pool');
    expect(nextSyncWay('pool', recent(0.3, POOL_BACK_BUSY - 0.01))).toBe('inline');
    // Both must hold to come back: a fast disk under a burst stays on the pool, and so does a slow one.
    expect(nextSyncWay('pool', recent(POOL_BACK_MS + 1, 0.1))).toBe('pool');
    // Before the first window is measured: inline stays inline, the pool stays the pool.
    expect(nextSyncWay('inline', recent(0.3, null))).toBe('inline');
    expect(nextSyncWay('pool', recent(0.3, null))).toBe('pool');
  });
});

describe('WalSync on the calling thread', () => {
  /** Inline and pool syncs recorded; each takes `take[way]` ms of a fake clock. */
  function countingSyncs() {
    let clock = 0;
    const log: string[] = [];
    const take = { inline: 0.2, pool: 0.2 };
    /** The thread's busy share reported for each sync, over 50 ms each. */
    const thread = { busy: 0.2 };
    const wal = new WalSync('/x-wal', {
      now: () => clock,
      utilization: () => ({ busy: thread.busy, ms: BUSY_WINDOW_MS / 2 }),
      inline: () => {
        log.push('inline');
        clock += take.inline;
      },
      pool: async () => {
        log.push('pool');
        clock += take.pool;
      },
    });
    return { wal, log, take, thread };
  }

  it("runs one sync after the turn's I/O for every commit made in that turn, not at the first call", async () => {
    const { wal, log } = countingSyncs();
    expect(wal.way).toBe('inline');
    const settled: number[] = [];
    const waits = [0, 1, 2].map((i) => wal.after().then(() => settled.push(i)));
    expect(log).toEqual([]); // not yet: later commits of this turn may still join
    await Promise.all(waits);
    expect(log).toEqual(['inline']);
    expect(settled).toEqual([0, 1, 2]);
    // A commit of a later turn gets a sync of its own.
    await wal.after();
    expect(log).toEqual(['inline', 'inline']);
  });

  it('moves to the pool when syncs turn slow, and back once they are fast again', async () => {
    const { wal, log, take } = countingSyncs();
    await wal.after();
    take.inline = 20; // a slow disk: the thread would stall 20 ms per turn
    await wal.after();
    expect(wal.way).toBe('pool');
    take.pool = 0.1;
    let turns = 0;
    while (wal.way === 'pool' && turns < 50) {
      await wal.after();
      turns++;
    }
    expect(wal.way).toBe('inline');
    expect(turns).toBeGreaterThan(3); // the slow syncs still weigh in the average for a few syncs
    expect(log.slice(0, 3)).toEqual(['inline', 'inline', 'pool']);
    expect(log.slice(2, 2 + turns)).toEqual(Array(turns).fill('pool'));
    await wal.after();
    expect(log.at(-1)).toBe('inline');
  });

  it("counts this thread's syncs by way, with their time, for /metrics", async () => {
    const soFar = () => Object.fromEntries(walSyncsSoFar());
    const before = soFar();
    const { wal, take } = countingSyncs();
    take.inline = 0.5;
    await wal.after();
    await wal.after();
    const after = soFar();
    expect(after.inline?.count).toBe((before.inline?.count ?? 0) + 2);
    expect(after.inline?.seconds).toBeCloseTo((before.inline?.seconds ?? 0) + 0.001, 9);
    expect(after.pool).toEqual(before.pool);
  });

  it('moves to the pool while the thread is busy, once a whole window says so, and back once idle', async () => {
    const { wal, log, thread } = countingSyncs();
    await wal.after();
    await wal.after(); // the first window (two syncs of 50 ms each) measured: idle
    expect(wal.way).toBe('inline');
    thread.busy = 0.95; // a burst
    await wal.after(); // half a window: not yet
    expect(wal.way).toBe('inline');
    await wal.after();
    expect(wal.way).toBe('pool');
    await wal.after();
    await wal.after();
    expect(wal.way).toBe('pool');
    thread.busy = (INLINE_MAX_BUSY + POOL_BACK_BUSY) / 2; // between the two limits: stays
    await wal.after();
    await wal.after();
    expect(wal.way).toBe('pool');
    thread.busy = 0.1;
    await wal.after();
    await wal.after();
    expect(wal.way).toBe('inline');
    expect(log).toEqual([...Array(4).fill('inline'), ...Array(6).fill('pool')]);
  });

  it('a failed inline sync rejects every commit of its turn; the next turn gets a sync of its own', async () => {
    let fail = true;
    let calls = 0;
    const wal = new WalSync('/x-wal', {
      inline: () => {
        calls++;
        if (fail) throw new Error('EIO');
      },
    });
    const both = [wal.after(), wal.after()];
    await expect(both[0]).rejects.toThrow('EIO');
    await expect(both[1]).rejects.toThrow('EIO');
    fail = false;
    await expect(wal.after()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe('WalSync with its own fdatasync', () => {
  it('keeps the log file open between syncs, keeps syncing it when its path is removed, and closes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wal-sync-'));
    const path = join(dir, 'db-wal');
    const openFds = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false;
        }
      });
    try {
      const wal = new WalSync(path);
      await wal.after(); // no log yet: nothing to sync, nothing opened
      expect(openFds()).toEqual([]);
      await writeFile(path, 'a');
      await wal.after();
      await wal.after();
      expect(openFds()).toHaveLength(1); // one descriptor, kept open and reused
      // Removed by hand and made again: SQLite goes on writing the file it has open, so that is the one
      // to sync, not the new file at the path.
      await rm(path);
      await writeFile(path, 'b');
      await wal.after();
      const after = openFds();
      expect(after).toHaveLength(1);
      expect(readlinkSync(`/proc/self/fd/${after[0]}`)).toBe(`${path} (deleted)`);
      await wal.close();
      expect(openFds()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
