import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { TEST_KEY_RING } from './contract/fixtures.js';
import { defineStorageContract } from './contract/harness.js';
import { migrations } from './schema.js';
import { openSqlite, StatementCache } from './sqlite.js';
import { openStorage, type Storage } from './storage.js';

defineStorageContract('sqlite', {
  async create() {
    const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
    const opened: Storage[] = [];
    return {
      async open(secrets = TEST_KEY_RING) {
        const storage = await openStorage({
          sqlitePath: join(dir, 'data', 'platform.db'),
          ...(secrets ? { secrets } : {}),
        });
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

it('sqlite: the connection runs in WAL with foreign keys and synchronous=NORMAL', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const sql = openSqlite(join(dir, 'p.db'), { busyTimeoutMs: 1234 });
  try {
    expect(await sql.get('PRAGMA journal_mode')).toMatchObject({ journal_mode: 'wal' });
    expect(await sql.get('PRAGMA foreign_keys')).toMatchObject({ foreign_keys: 1 });
    // NORMAL (1): the WAL is synced at checkpoints, not at each commit (see the next test for FULL).
    expect(await sql.get('PRAGMA synchronous')).toMatchObject({ synchronous: 1 });
    // SQLite never blocks the event loop waiting for a lock: waiting is done asynchronously (next test).
    expect(await sql.get('PRAGMA busy_timeout')).toMatchObject({ timeout: 0 });
    // Temporary storage on disk (0: SQLite's default): in memory, a VACUUM or an index built on a large
    // table would hold a copy of it in RAM (storage/README.md, "Temporary storage").
    expect(await sql.get('PRAGMA temp_store')).toMatchObject({ temp_store: 0 });
  } finally {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('sqlite: synchronous "full" (PLATFORM_SQLITE_SYNC=full): a write resolves only after the log is synced', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const synced: string[] = [];
  let release: () => void = () => undefined;
  let mode: 'pass' | 'hold' | 'fail' = 'pass';
  const syncFile = (path: string) =>
    new Promise<void>((resolve, reject) => {
      synced.push(path);
      if (mode === 'fail') reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
      else if (mode === 'hold') release = resolve;
      else resolve();
    });
  const path = join(dir, 'p.db');
  const sql = openSqlite(path, { synchronous: 'full', syncFile });
  try {
    await sql.run('CREATE TABLE t (v TEXT)');
    mode = 'hold';
    // Never SQLite's own FULL (it would sync inside COMMIT, blocking the thread): NORMAL + a sync after.
    expect(await sql.get('PRAGMA synchronous')).toMatchObject({ synchronous: 1 });
    let done = false;
    const write = sql
      .transaction((tx) => tx.run('INSERT INTO t (v) VALUES (?)', ['a']))
      .then(() => {
        done = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false); // committed, but not acknowledged before the disk has it
    // Committed already, and the connection is free meanwhile: a read sees the row while the sync runs.
    expect(await sql.get('SELECT COUNT(*) AS n FROM t')).toMatchObject({ n: 1 });
    expect(synced.at(-1)).toBe(`${path}-wal`);
    release();
    await write;
    expect(done).toBe(true);
    // A failed sync: the caller hears "unavailable" (retry), not success.
    mode = 'fail';
    const failed = await sql.run('INSERT INTO t (v) VALUES (?)', ['b']).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'StorageError', code: 'unavailable' });
    expect(String((failed as Error).message)).toContain('could not sync the log to disk');
  } finally {
    mode = 'pass';
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('sqlite: synchronous "normal" (the default) never waits for a sync', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const synced: string[] = [];
  const sql = openSqlite(join(dir, 'p.db'), {
    syncFile: async (path) => {
      synced.push(path);
    },
  });
  try {
    await sql.run('CREATE TABLE t (v TEXT)');
    await sql.transaction((tx) => tx.run('INSERT INTO t (v) VALUES (?)', ['a']));
    expect(synced).toEqual([]);
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
    expect(both.map((s) => s.appliedMigrations).sort()).toEqual([[], migrations.map((m) => m.version)]);
    await both[0]!.settings.set('k', 'v');
    expect(await both[1]!.settings.get('k')).toBe('v');
  } finally {
    await Promise.all(both.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  }
});

it('sqlite: cached statements give right answers when one SQL text is used with all, get and run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const sql = openSqlite(join(dir, 'p.db'));
  try {
    await sql.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    for (let i = 1; i <= 10; i += 1) await sql.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, `v${i}`]);
    const q = 'SELECT id FROM t WHERE id > ? ORDER BY id';
    // One SQL text used with all, get and run (libsql 0.5 reused stale bindings here).
    expect(await sql.all(q, [8])).toEqual([{ id: 9 }, { id: 10 }]);
    expect(await sql.get(q, [0])).toEqual({ id: 1 });
    expect(await sql.get(q, [5])).toEqual({ id: 6 });
    expect((await sql.all(q, [0])).length).toBe(10);
    // A failed run leaves the cached statement usable.
    const insert = 'INSERT INTO t (id, v) VALUES (?, ?)';
    await expect(sql.run(insert, [1, 'dup'])).rejects.toMatchObject({ code: 'conflict' });
    expect(await sql.run(insert, [11, 'v11'])).toEqual({ changes: 1 });
    expect(await sql.get('SELECT v FROM t WHERE id = ?', [11])).toEqual({ v: 'v11' });
  } finally {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('sqlite: the statement cache is bounded and evicts the least recently used statement', () => {
  const db = new Database(':memory:');
  try {
    const cache = new StatementCache(db, 2);
    const a = cache.get('get', 'SELECT 1');
    expect(cache.get('get', 'SELECT 1')).toBe(a);
    expect(cache.get('all', 'SELECT 1')).not.toBe(a); // one statement per method
    cache.get('get', 'SELECT 1'); // now most recently used
    cache.get('get', 'SELECT 2'); // evicts ('all', 'SELECT 1')
    expect(cache.size).toBe(2);
    expect(cache.get('get', 'SELECT 1')).toBe(a);
  } finally {
    db.close();
  }
});

it('sqlite: while another connection holds the write lock, writes wait asynchronously up to busyTimeoutMs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-storage-'));
  const path = join(dir, 'p.db');
  const a = openSqlite(path, { busyTimeoutMs: 400 });
  const b = openSqlite(path, { busyTimeoutMs: 400 });
  try {
    await a.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 5);
    // A holds the lock for ~150 ms: B's autocommit write and B's transaction wait, then succeed.
    let release!: () => void;
    const held = a.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id) VALUES (1)');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    setTimeout(() => release(), 150);
    const started = Date.now();
    await Promise.all([
      b.run('INSERT INTO t (id) VALUES (2)'),
      b.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (3)')),
    ]);
    await held;
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(ticks).toBeGreaterThan(5); // the event loop kept turning while B waited
    expect(await b.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);

    // Held longer than the timeout: B gives up with `unavailable`, and nothing of B's was written.
    let holding!: () => void;
    const aHolds = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const long = a.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id) VALUES (4)');
      holding();
      await new Promise((resolve) => setTimeout(resolve, 1100));
    });
    await aHolds; // A has the lock before B tries
    // B's connection runs one thing at a time: each gives up after 400 ms, both inside A's 1 100 ms.
    await expect(b.run('INSERT INTO t (id) VALUES (5)')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(b.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (6)'))).rejects.toMatchObject({
      code: 'unavailable',
    });
    await long;
    clearInterval(ticker);
    expect(await b.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
  } finally {
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  }
});
