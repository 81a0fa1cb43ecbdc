import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WalSync } from './wal-sync.js';

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
      await expect(new WalSync(join(dir, 'missing-wal')).after()).resolves.toBeUndefined();
      // Anything else is an error the caller hears of.
      await expect(new WalSync(join(dir, 'no-such-dir', 'x', '\0bad')).after()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('WalSync with its own fdatasync', () => {
  it('keeps the log file open between syncs, opens a new log after the old one was removed, and closes it', async () => {
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
      await rm(path);
      await writeFile(path, 'b'); // a new log: another file at the same path
      await wal.after();
      const after = openFds();
      expect(after).toHaveLength(1);
      expect(readlinkSync(`/proc/self/fd/${after[0]}`)).toBe(path); // the new file, not "(deleted)"
      await wal.close();
      expect(openFds()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
