import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { defineStorageContract } from './contract/harness.js';
import { openSqlite } from './sqlite.js';
import { openStorage, type Storage } from './storage.js';

defineStorageContract('sqlite', {
  async create() {
    const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
    const opened: Storage[] = [];
    return {
      async open() {
        const storage = await openStorage({ sqlitePath: join(dir, 'data', 'platform.db') });
        opened.push(storage);
        return storage;
      },
      async dispose() {
        await Promise.all(opened.map((s) => s.close()));
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
});

it('sqlite: the connection runs in WAL with foreign keys, busy_timeout and synchronous=NORMAL', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const sql = openSqlite(join(dir, 'p.db'), { busyTimeoutMs: 1234 });
  try {
    expect(await sql.get('PRAGMA journal_mode')).toMatchObject({ journal_mode: 'wal' });
    expect(await sql.get('PRAGMA foreign_keys')).toMatchObject({ foreign_keys: 1 });
    expect(await sql.get('PRAGMA busy_timeout')).toMatchObject({ timeout: 1234 });
    expect(await sql.get('PRAGMA synchronous')).toMatchObject({ synchronous: 1 });
  } finally {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('sqlite: two hosts opening a fresh database at once apply the migrations exactly once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const path = join(dir, 'p.db');
  const both = await Promise.all([openStorage({ sqlitePath: path }), openStorage({ sqlitePath: path })]);
  try {
    expect(both.map((s) => s.appliedMigrations).sort()).toEqual([[], [1]]);
    await both[0]!.settings.set('k', 'v');
    expect(await both[1]!.settings.get('k')).toBe('v');
  } finally {
    await Promise.all(both.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  }
});
