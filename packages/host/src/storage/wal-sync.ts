import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Where a sync of the log runs. `inline`: on the calling thread, once per turn of its event loop (a
 * `setImmediate` after the turn's I/O), for every commit made before it; `pool`: on libuv's thread pool,
 * the thread going on with its work meanwhile.
 */
export type SyncWay = 'inline' | 'pool';

/**
 * Inline syncs on average slower than this (ms) move to the pool: the thread would otherwise wait on the
 * disk for longer than it takes to read and commit a turn's requests (storage README, "Durability").
 */
export const INLINE_MAX_MS = 2;
/** Pool syncs on average faster than this (ms, from the call to its callback) come back inline. */
export const POOL_BACK_MS = 1;
/**
 * A thread busier than this (share of the last {@link BUSY_WINDOW_MS} not spent waiting for I/O, inline
 * syncs included) moves its syncs to the pool: it is near saturation, and has requests to read while
 * the disk syncs. (On a 2-core machine the main thread is 60-90 % busy in a burst; at 1 000 events/s
 * with inline syncs, 40-70 %.)
 */
export const INLINE_MAX_BUSY = 0.9;
/** A thread whose syncs run on the pool and that is busy less than this comes back inline. */
export const POOL_BACK_BUSY = 0.7;
/** How long (ms) the thread's busy share is measured over before it counts. */
export const BUSY_WINDOW_MS = 100;
/** The weight of the newest sync in the average time of syncs. */
const AVERAGE_WEIGHT = 0.25;

/** What recent syncs and the thread were like. */
export interface RecentSyncs {
  /** Time per sync (ms), averaged with {@link AVERAGE_WEIGHT}. */
  averageMs: number;
  /** The thread's event loop utilization over the last window (0 to 1), or null before the first. */
  busy: number | null;
}

/**
 * Which way the next sync goes, from the way of the last one and what recent syncs were like. Pure.
 * A sync handed to the pool costs the process a pool thread's wake-up and the caller's own when it ends:
 * more CPU than the sync itself where each group of commits has its sync, as at moderate rates
 * (docs/benchmarks.md, "Syncs on the calling thread"). An inline sync costs the thread the disk's time
 * instead, which matters only when the thread has no time to spare. So a sync runs inline while the disk
 * is fast and the thread has time to spare, and on the pool while the disk is slow (the thread would
 * stall) or the thread saturated (it reads the next requests while the disk syncs).
 *
 * @example
 * nextSyncWay('inline', { averageMs: 0.4, busy: 0.3 }); // 'inline': fast disk, moderate rate
 * nextSyncWay('inline', { averageMs: 8, busy: 0.3 }); // 'pool': a slow disk would stall the thread
 * nextSyncWay('inline', { averageMs: 0.4, busy: 0.95 }); // 'pool': the thread is saturated
 * nextSyncWay('pool', { averageMs: 0.6, busy: 0.2 }); // 'inline' again
 */
export function nextSyncWay(way: SyncWay, recent: RecentSyncs): SyncWay {
  const { averageMs, busy } = recent;
  if (way === 'inline') return averageMs > INLINE_MAX_MS || (busy ?? 0) > INLINE_MAX_BUSY ? 'pool' : 'inline';
  return averageMs < POOL_BACK_MS && (busy ?? 1) < POOL_BACK_BUSY ? 'inline' : 'pool';
}

/** This thread's log syncs so far, by way: how many, and their time in seconds (for `/metrics`). */
const syncsSoFar: Record<SyncWay, { count: number; seconds: number }> = {
  inline: { count: 0, seconds: 0 },
  pool: { count: 0, seconds: 0 },
};

/**
 * The SQLite log syncs this thread has run so far, by way, with their time (seconds, from the start of
 * each to its end; on the pool, the hand-off included). Read by the host's `/metrics`
 * (`platform_sqlite_log_syncs_total`, `platform_sqlite_log_sync_seconds_total`).
 *
 * @example
 * const [[way, { count, seconds }]] = walSyncsSoFar(); // ['inline', { count: 1200, seconds: 0.44 }]
 */
export function walSyncsSoFar(): Array<[SyncWay, { count: number; seconds: number }]> {
  return (Object.keys(syncsSoFar) as SyncWay[]).map((way) => [way, { ...syncsSoFar[way] }]);
}

/** How a {@link WalSync} syncs; every field has a default, the functions are for tests. */
export interface WalSyncOptions {
  /** `auto` (default): by {@link nextSyncWay}, starting inline; or always one way. */
  way?: SyncWay | 'auto';
  /** Syncs `path` on the pool. Default: `fdatasync` through a descriptor kept open. */
  pool?: (path: string) => Promise<void>;
  /** Syncs `path` on the calling thread. Default: `fdatasyncSync` through the same descriptor. */
  inline?: (path: string) => void;
  /** A clock in milliseconds, to time syncs. Default `performance.now`. */
  now?: () => number;
  /**
   * The thread's event loop utilization since the last call, with the window's length (ms). Default:
   * `performance.eventLoopUtilization` of the calling thread.
   */
  utilization?: () => { busy: number; ms: number };
}

interface Sync {
  /** Whether the sync has begun: a commit made before it began is in it. */
  begun: boolean;
  done: Promise<void>;
}

/**
 * Makes SQLite commits durable against power loss without a sync inside every COMMIT. SQLite's own
 * `synchronous = FULL` syncs the write-ahead log inside COMMIT, once per transaction. Instead the
 * connection runs with `synchronous = NORMAL` (consistent after any crash; the log synced at checkpoints)
 * and, after a commit, the caller awaits {@link after}: an `fdatasync` of the log file that every commit
 * of the moment shares (group commit), so a burst costs a few syncs, not one per request. The sync runs
 * on the calling thread after the event loop's turn (every request read in that turn is in it) while the
 * disk is fast, and on libuv's thread pool while the disk is slow or the thread saturated
 * ({@link nextSyncWay}).
 *
 * @example
 * const wal = new WalSync(`${path}-wal`);
 * db.exec('COMMIT');
 * await wal.after(); // now it survives a power loss: answer the client
 */
export class WalSync {
  readonly #path: string;
  readonly #fixed: SyncWay | null;
  readonly #pool: (path: string) => Promise<void>;
  readonly #inline: (path: string) => void;
  readonly #now: () => number;
  #way: SyncWay;
  readonly #utilization: () => { busy: number; ms: number };
  #averageMs: number | null = null;
  #busy: number | null = null;
  /** Of the window being measured: the time (ms) and the busy time so far. */
  #window = { ms: 0, busyMs: 0 };
  #current: Sync | null = null;
  #next: Promise<void> | null = null;
  /** The log file, kept open between syncs (the default functions). */
  #fd: number | null = null;

  /** `options` for tests: a function alone is the pool's sync, and every sync goes that way. */
  constructor(path: string, options: WalSyncOptions | ((path: string) => Promise<void>) = {}) {
    const o: WalSyncOptions = typeof options === 'function' ? { way: 'pool', pool: options } : options;
    this.#path = path;
    this.#fixed = o.way === undefined || o.way === 'auto' ? null : o.way;
    this.#way = this.#fixed ?? 'inline';
    this.#pool = o.pool ?? ((file) => this.#poolDatasync(file));
    this.#inline = o.inline ?? ((file) => this.#inlineDatasync(file));
    this.#now = o.now ?? (() => performance.now());
    this.#utilization = o.utilization ?? threadUtilization();
  }

  /** The way the next sync will go (see {@link nextSyncWay}). */
  get way(): SyncWay {
    return this.#way;
  }

  /**
   * The log's descriptor, kept open: opening and closing the file for every sync cost the thread more
   * than the sync itself (docs/benchmarks.md, "The log file kept open"). It is opened at the first sync,
   * after this connection's first commit, and kept until {@link close}: SQLite removes the log only when
   * the last connection to the database closes, so while this one is open the file it writes is the one
   * opened here. If the path is removed anyway (by hand), SQLite goes on writing the file it has open,
   * and so this descriptor still syncs the right file; reopening the path would sync another one. Nothing
   * is asked of the file before a sync either: a `stat` makes the kernel (Linux 6.13+) give the next
   * write a fine-grained time, and the sync then also writes the file's inode (docs/benchmarks.md, "A
   * stat before each log sync"). No file yet (a log never written): null, nothing to sync. Syncs never
   * overlap (`after` runs one at a time), so the descriptor has one user.
   */
  #descriptor(path: string): number | null {
    if (this.#fd === null) {
      try {
        this.#fd = openSync(path, 'r');
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') return null;
        throw error;
      }
    }
    return this.#fd;
  }

  async #poolDatasync(path: string): Promise<void> {
    const fd = this.#descriptor(path);
    if (fd === null) return;
    await new Promise<void>((resolve, reject) => {
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  }

  #inlineDatasync(path: string): void {
    const fd = this.#descriptor(path);
    if (fd !== null) fdatasyncSync(fd);
  }

  #closeFile(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
  }

  /** Closes the log file after the sync in flight, if any (the storage is closing). */
  async close(): Promise<void> {
    await this.#current?.done.catch(() => undefined);
    this.#closeFile();
  }

  /**
   * Resolves once everything written to the log before this call is on disk; rejects if the sync
   * failed (the data is then committed but its durability unknown: report it, do not acknowledge).
   */
  after(): Promise<void> {
    // A sync not yet begun (inline, waiting for the end of the turn) will cover this commit: share it.
    if (this.#current && !this.#current.begun) return this.#current.done;
    // A sync already queued starts after the running one ends, so after this call: share it.
    if (this.#next) return this.#next;
    if (!this.#current) return this.#start();
    // The running sync may have begun before this caller's commit: it needs the next one.
    const next = this.#current.done.then(
      () => this.#start(),
      () => this.#start(),
    );
    this.#next = next;
    return next;
  }

  #start(): Promise<void> {
    this.#next = null;
    const sync: Sync = { begun: false, done: Promise.resolve() };
    const run = this.#way === 'pool' ? this.#onPool(sync) : this.#onThisThread(sync);
    sync.done = run.finally(() => {
      if (this.#current === sync) this.#current = null;
    });
    this.#current = sync;
    return sync.done;
  }

  #onPool(sync: Sync): Promise<void> {
    sync.begun = true;
    const start = this.#now();
    return this.#pool(this.#path).finally(() => this.#timed('pool', start));
  }

  /** After this turn's I/O callbacks, so that every commit made in the turn shares the sync. */
  #onThisThread(sync: Sync): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        sync.begun = true;
        const start = this.#now();
        try {
          this.#inline(this.#path);
          resolve();
        } catch (error) {
          reject(error);
        } finally {
          this.#timed('inline', start);
        }
      });
    });
  }

  /** Adds a sync to the average time, the thread's recent busy share, and picks the way of the next. */
  #timed(way: SyncWay, start: number): void {
    const ms = this.#now() - start;
    syncsSoFar[way].count++;
    syncsSoFar[way].seconds += ms / 1000;
    this.#averageMs =
      this.#averageMs === null ? ms : this.#averageMs + (ms - this.#averageMs) * AVERAGE_WEIGHT;
    const { busy, ms: elapsed } = this.#utilization();
    this.#window.ms += elapsed;
    this.#window.busyMs += busy * elapsed;
    if (this.#window.ms >= BUSY_WINDOW_MS) {
      this.#busy = this.#window.busyMs / this.#window.ms;
      this.#window = { ms: 0, busyMs: 0 };
    }
    if (this.#fixed === null) this.#way = nextSyncWay(way, { averageMs: this.#averageMs, busy: this.#busy });
  }
}

/**
 * The calling thread's event loop utilization since the last call (the first: since this was made),
 * and that span in ms.
 */
function threadUtilization(): () => { busy: number; ms: number } {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return { busy: delta.utilization, ms: delta.idle + delta.active };
  };
}
