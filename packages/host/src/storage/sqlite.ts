import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StorageError } from './errors.js';
import { Mutex } from './mutex.js';
import { normalizeParams, type Row, type Sql, type SqlValue } from './sql.js';
import {
  assertOutsideOwnTx,
  assertTxOpen,
  checkTransactionsOf,
  runInTxScope,
  type TxState,
  withSavepoint,
} from './tx-scope.js';
import { WalSync } from './wal-sync.js';
import { WriterLock } from './writer-lock.js';

/** Options of {@link openSqlite}. */
export interface SqliteOptions {
  /** How long a writer waits for another process's lock, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Shares the write lock with other threads of this process that open the same file (each with its
   * own `slot`): writers then take turns through a {@link WriterLock} instead of polling on SQLITE_BUSY.
   */
  writerLock?: { buffer: SharedArrayBuffer; slot: number };
  /**
   * When a write counts as done. `normal` (default): once committed to the write-ahead log, which is
   * synced to disk at checkpoints; it survives a crash of the process but may be rolled back, with the
   * last moments before it, when the machine itself goes down. `full`: once the log is also synced to
   * disk (one `fdatasync` shared by the writes of the moment, run at the end of the event loop's turn,
   * see {@link WalSync}), so it also survives a power loss or an OS crash. The database stays consistent
   * either way.
   */
  synchronous?: SqliteSynchronous;
  /** How `full` syncs the log file, asynchronously (default: see {@link WalSync}). For tests. */
  syncFile?: (path: string) => Promise<void>;
  /**
   * Throw `StorageError('invalid')` when the handle is used inside one of its own transactions, where it
   * would deadlock (`checkTransactionsOf` in tx-scope.ts: it costs CPU on every promise). Default true.
   */
  checkTransactions?: boolean;
}

/** See {@link SqliteOptions.synchronous}. */
export type SqliteSynchronous = 'full' | 'normal';

interface Shared {
  readonly db: Database.Database;
  readonly mutex: Mutex;
  readonly busyTimeoutMs: number;
  readonly statements: StatementCache;
  readonly writer: { lock: WriterLock; slot: number } | null;
  /** With `synchronous: 'full'`: what each write awaits after its commit (see {@link WalSync}). */
  readonly wal: WalSync | null;
}

/** Statements that cannot write (they need no write lock outside a transaction). */
const READ_ONLY = /^\s*(SELECT|PRAGMA|EXPLAIN)\b/i;

/** How many prepared statements a connection keeps (the host uses a few dozen distinct SQL texts). */
export const STATEMENT_CACHE_SIZE = 256;

type Method = 'all' | 'get' | 'run';

/**
 * Prepared statements of one connection, least recently used evicted first. Keyed by method AND SQL
 * text: better-sqlite3 refuses `get`/`all` on a statement that returns no rows, and a statement is
 * only ever used the one way (this also kept libsql 0.5, used before, from binding stale parameters).
 */
export class StatementCache {
  readonly #map = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly capacity: number,
  ) {}

  get(method: Method, sql: string): Database.Statement {
    const key = method + sql;
    let statement = this.#map.get(key);
    if (statement) {
      this.#map.delete(key); // re-inserted below: most recently used last
    } else {
      statement = this.db.prepare(sql);
      if (this.#map.size >= this.capacity) {
        const oldest = this.#map.keys().next();
        if (!oldest.done) this.#map.delete(oldest.value);
      }
    }
    this.#map.set(key, statement);
    return statement;
  }

  get size(): number {
    return this.#map.size;
  }
}

/**
 * Opens (creating folders as needed) a SQLite database file with WAL, foreign keys and synchronous=NORMAL
 * (with `synchronous: 'full'`, each write also awaits a sync of the log; {@link SqliteOptions.synchronous}).
 * While another connection holds the lock, statements wait asynchronously (up to `busyTimeoutMs`). All access goes through one connection, serialized by an async mutex, so nothing
 * interleaves with an open transaction.
 *
 * @example
 * const sql = openSqlite('./.platform/platform.db');
 * await sql.run('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)', ['k', 'v', Date.now()]);
 */
export function openSqlite(path: string, options: SqliteOptions = {}): Sql {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    db.exec('PRAGMA foreign_keys = ON');
    // Temporary storage stays SQLite's default, on disk: in memory, VACUUM and CREATE INDEX would hold a
    // copy of the data in RAM (storage/README.md, "Temporary storage").
    // NORMAL either way: `full` syncs after the commit, once per turn of the event loop (WalSync), not
    // inside every COMMIT.
    db.exec('PRAGMA synchronous = NORMAL');
    // From here on SQLite never waits by itself (that would block the event loop, and deadlock two
    // connections of this process): a statement or BEGIN IMMEDIATE that meets another connection's lock
    // fails with SQLITE_BUSY at once and is retried asynchronously until busyTimeoutMs (see #retryBusy).
    db.exec('PRAGMA busy_timeout = 0');
  } catch (error) {
    throw new StorageError('unavailable', `cannot open the SQLite database at ${path}: ${describe(error)}`, {
      cause: error,
    });
  }
  const writer = options.writerLock
    ? { lock: WriterLock.from(options.writerLock.buffer), slot: options.writerLock.slot }
    : null;
  const shared: Shared = {
    db,
    mutex: new Mutex(),
    busyTimeoutMs,
    statements: new StatementCache(db, STATEMENT_CACHE_SIZE),
    writer,
    wal:
      options.synchronous === 'full' && path !== ':memory:'
        ? new WalSync(`${path}-wal`, options.syncFile)
        : null,
  };
  if (options.checkTransactions ?? true) checkTransactionsOf(shared);
  return new SqliteSql(shared, null);
}

class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;

  constructor(
    private readonly shared: Shared,
    private readonly tx: TxState | null,
  ) {}

  all(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
    return this.#use(
      () => this.shared.statements.get('all', sql).all(normalizeParams(params)) as Row[],
      !READ_ONLY.test(sql),
    );
  }

  get(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined> {
    return this.#use(() => {
      return this.shared.statements.get('get', sql).get(normalizeParams(params)) as Row | undefined;
    }, !READ_ONLY.test(sql));
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.#use(
      () => ({
        changes: this.shared.statements.get('run', sql).run(normalizeParams(params)).changes,
      }),
      true,
    );
  }

  exec(sql: string): Promise<void> {
    const { db, busyTimeoutMs } = this.shared;
    if (this.tx) {
      return this.#use(() => {
        db.exec(sql);
      }, true);
    }
    // Outside a transaction (rare: DDL, PRAGMAs) a multi-statement text may stop half-way on
    // SQLITE_BUSY, so it is not retried: SQLite itself waits, as it did before the async retry.
    return this.#use(() => {
      db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
      try {
        db.exec(sql);
      } finally {
        db.exec('PRAGMA busy_timeout = 0');
      }
    }, true);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.tx) {
      assertTxOpen(this.tx);
      return withSavepoint(this, this.tx, fn);
    }
    assertOutsideOwnTx(this.shared);
    return this.#durable(
      this.shared.mutex.run(() =>
        this.#whileWriting(async () => {
          const { db } = this.shared;
          const begun = this.#beginImmediate();
          if (begun) await begun;
          const state: TxState = { owner: this.shared, open: true, savepoints: 0 };
          try {
            const result = await runInTxScope(state, () => fn(new SqliteSql(this.shared, state)));
            try {
              db.exec('COMMIT');
            } catch (error) {
              throw wrapSqliteError(error);
            }
            return result;
          } catch (error) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw error;
          } finally {
            state.open = false;
          }
        }),
      ),
    );
  }

  /**
   * Resolves with `committed`'s result once it is durable: at once in `normal` mode, after a sync of the
   * log in `full` mode (awaited outside the mutex and the write lock, so the next writes go on meanwhile
   * and share the next sync). A failed sync is `unavailable`: the write is in the log, but not known to
   * be on disk, so the caller must not acknowledge it (a retry with the same key is idempotent).
   */
  #durable<T>(committed: Promise<T>): Promise<T> {
    const { wal } = this.shared;
    if (!wal) return committed;
    return committed.then(async (result) => {
      try {
        await wal.after();
      } catch (error) {
        const reason = `SQLite: could not sync the log to disk (${describe(error)}); retry`;
        throw new StorageError('unavailable', reason, { cause: error });
      }
      return result;
    });
  }

  /**
   * Runs `op` holding this process's shared write lock (when the connection has one; see
   * {@link SqliteOptions.writerLock}). Synchronous when the lock is free and `op` is.
   */
  #whileWriting<T>(op: () => T | Promise<T>): T | Promise<T> {
    const writer = this.shared.writer;
    if (!writer) return op();
    const waiting = writer.lock.acquire(writer.slot, this.shared.busyTimeoutMs);
    if (waiting) return waiting.then(() => this.#releasingAfter(writer, op));
    return this.#releasingAfter(writer, op);
  }

  #releasingAfter<T>(writer: { lock: WriterLock; slot: number }, op: () => T | Promise<T>): T | Promise<T> {
    let result: T | Promise<T>;
    try {
      result = op();
    } catch (error) {
      writer.lock.release(writer.slot);
      throw error;
    }
    if (!(result instanceof Promise)) {
      writer.lock.release(writer.slot);
      return result;
    }
    return result.finally(() => writer.lock.release(writer.slot));
  }

  async close(): Promise<void> {
    await this.shared.mutex.run(() => {
      if (this.shared.db.open) this.shared.db.close();
    });
    await this.shared.wal?.close();
  }

  /** BEGIN IMMEDIATE, waiting asynchronously (not blocking the event loop) while another connection writes. */
  #beginImmediate(): Promise<void> | undefined {
    const { db } = this.shared;
    const begun = this.#busyAware(() => {
      db.exec('BEGIN IMMEDIATE');
    });
    return begun instanceof Promise ? begun : undefined;
  }

  /**
   * Runs a single statement; when another connection holds the lock (SQLITE_BUSY, which a failed
   * statement leaves without effect) retries it every 2-10 ms until `busyTimeoutMs`, yielding to the
   * event loop in between. The common case (no contention) stays synchronous: no timer, no extra PRAGMA.
   */
  #busyAware<T>(op: () => T): T | Promise<T> {
    try {
      return op();
    } catch (error) {
      if (!isBusy(error)) throw wrapSqliteError(error);
      return this.#retryBusy(op, Date.now() + this.shared.busyTimeoutMs);
    }
  }

  async #retryBusy<T>(op: () => T, deadline: number): Promise<T> {
    for (;;) {
      if (Date.now() >= deadline) {
        throw new StorageError(
          'unavailable',
          `SQLite: the database is locked by another writer for more than ${this.shared.busyTimeoutMs} ms; retry`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
      try {
        return op();
      } catch (error) {
        if (!isBusy(error)) throw wrapSqliteError(error);
      }
    }
  }

  async #use<T>(op: () => T, writes: boolean): Promise<T> {
    if (this.tx) {
      assertTxOpen(this.tx);
      // Inside BEGIN IMMEDIATE this connection already holds the write lock.
      try {
        return op();
      } catch (error) {
        throw wrapSqliteError(error);
      }
    }
    assertOutsideOwnTx(this.shared);
    if (!writes) return this.shared.mutex.run(() => this.#busyAware(op));
    return this.#durable(this.shared.mutex.run(() => this.#whileWriting(() => this.#busyAware(op))));
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Maps a better-sqlite3 error to a {@link StorageError} (constraint names only, never bound values). */
export function wrapSqliteError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return new StorageError('conflict', `SQLite: ${describe(error)}`, { cause: error });
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new StorageError('not_found', `SQLite: a referenced row does not exist (${describe(error)})`, {
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StorageError('unavailable', `SQLite: the database is locked by another writer; retry`, {
      cause: error,
    });
  }
  return new StorageError('internal', `SQLite: ${describe(error)}`, { cause: error });
}
