import { closeSync, fdatasync, fstatSync, openSync } from 'node:fs';

/**
 * Makes SQLite commits durable against power loss without blocking the event loop. SQLite's own
 * `synchronous = FULL` syncs the write-ahead log inside COMMIT, and better-sqlite3 runs COMMIT on the
 * calling thread, so every sync would stall the thread's HTTP work. Instead the connection runs with
 * `synchronous = NORMAL` (consistent after any crash; the log synced at checkpoints) and, after a commit,
 * the caller awaits {@link after}: an `fdatasync` of the log file on libuv's thread pool. Callers whose
 * commits land while a sync runs share the next one (group commit), so a burst costs a few syncs, not one
 * per request.
 *
 * @example
 * const wal = new WalSync(`${path}-wal`);
 * db.exec('COMMIT');
 * await wal.after(); // now it survives a power loss: answer the client
 */
export class WalSync {
  readonly #path: string;
  readonly #sync: (path: string) => Promise<void>;
  #current: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  /** The log file, kept open between syncs (the default `sync`). */
  #fd: number | null = null;

  /** `sync` is for tests (count or delay the syncs); default `fdatasync` of `path`. */
  constructor(path: string, sync?: (path: string) => Promise<void>) {
    this.#path = path;
    this.#sync = sync ?? ((file) => this.#datasync(file));
  }

  /**
   * `fdatasync` of the log on libuv's thread pool, through a descriptor kept open: opening and closing
   * the file for every sync cost the main thread more than the sync itself (docs/benchmarks.md, "The log
   * file kept open"). A descriptor whose file is gone (SQLite removes the log at the last close; a log
   * made afterwards is another file) is closed and the path opened again; no file, nothing to sync.
   * Syncs never overlap (`after` runs one at a time), so the descriptor has one user.
   */
  async #datasync(path: string): Promise<void> {
    if (this.#fd !== null && fstatSync(this.#fd).nlink === 0) this.#closeFile();
    if (this.#fd === null) {
      try {
        this.#fd = openSync(path, 'r');
      } catch (error) {
        // No log file: SQLite removed it after checkpointing everything into the database (last close).
        if ((error as { code?: unknown }).code === 'ENOENT') return;
        throw error;
      }
    }
    const fd = this.#fd;
    await new Promise<void>((resolve, reject) => {
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  }

  #closeFile(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
  }

  /** Closes the log file after the sync in flight, if any (the storage is closing). */
  async close(): Promise<void> {
    await this.#current?.catch(() => undefined);
    this.#closeFile();
  }

  /**
   * Resolves once everything written to the log before this call is on disk; rejects if the sync
   * failed (the data is then committed but its durability unknown: report it, do not acknowledge).
   */
  after(): Promise<void> {
    // A sync already queued starts after the running one ends, so after this call: share it.
    if (this.#next) return this.#next;
    if (!this.#current) return this.#start();
    // The running sync may have begun before this caller's commit: it needs the next one.
    const next = this.#current.then(
      () => this.#start(),
      () => this.#start(),
    );
    this.#next = next;
    return next;
  }

  #start(): Promise<void> {
    this.#next = null;
    const run = this.#sync(this.#path).finally(() => {
      if (this.#current === run) this.#current = null;
    });
    this.#current = run;
    return run;
  }
}
