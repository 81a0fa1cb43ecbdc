import { StorageError } from './errors.js';
import { SharedCells } from './shared-cells.js';

/** How many threads of one process may share a {@link WriterLock} (a slot each). */
export const WRITER_LOCK_SLOTS = 8;

const OWNER = 0;
const WAITING = 1;
const GRANTED = 2;

/**
 * A write lock shared by the threads of ONE process that open the same SQLite file (the host's main
 * thread and its delivery worker), in a `SharedArrayBuffer` passed to each thread.
 *
 * Why: SQLite lets one connection write at a time; a connection that meets another's lock gets
 * SQLITE_BUSY and can only poll. Between threads of a process this lock replaces the polling (which slept
 * 2-10 ms per try and stalled each thread's queue behind it) with a hand-off that wakes the waiter within
 * microseconds (`Atomics.waitAsync`, never blocking an event loop). It is fair: a thread that releases the
 * lock while another waits hands it over instead of taking it again. Other processes on the same file are
 * still handled by SQLite's SQLITE_BUSY (see `sqlite.ts`).
 *
 * Each thread uses its own slot (0 … {@link WRITER_LOCK_SLOTS} − 1); a thread holds the lock at most once.
 * Layout: `[owner (0 = free, else slot + 1), state of slot 0, state of slot 1, …]` where a slot's state is
 * 0 (idle), 1 (waiting) or 2 (granted: the lock is being handed to it).
 *
 * @example
 * const lock = WriterLock.create();
 * new Worker(url, { workerData: { lock: lock.buffer } }); // the worker: WriterLock.from(workerData.lock)
 * await lock.acquire(0, 5_000);
 * try { … write … } finally { lock.release(0); }
 */
export class WriterLock extends SharedCells {
  /** A new, free lock. */
  static create(): WriterLock {
    return new WriterLock(SharedCells.newBuffer(1 + WRITER_LOCK_SLOTS));
  }

  /** The lock whose buffer another thread created. */
  static from(buffer: SharedArrayBuffer): WriterLock {
    return new WriterLock(SharedCells.adopt(buffer, 1 + WRITER_LOCK_SLOTS, 'WriterLock'));
  }

  /**
   * Takes the lock for `slot`: synchronously (returns `undefined`) when it is free, else a promise that
   * resolves once it is handed over, or rejects with `StorageError('unavailable')` after `timeoutMs`.
   */
  acquire(slot: number, timeoutMs: number): Promise<void> | undefined {
    const me = checkSlot(slot) + 1;
    if (Atomics.compareExchange(this.cells, OWNER, 0, me) === 0) return undefined;
    return this.#wait(slot, Date.now() + timeoutMs);
  }

  /** Releases the lock held by `slot`, handing it to a waiting thread if there is one. */
  release(slot: number): void {
    const me = checkSlot(slot) + 1;
    if (Atomics.load(this.cells, OWNER) !== me) {
      throw new Error(`WriterLock: slot ${slot} released a lock it does not hold`);
    }
    this.#handOff(slot);
  }

  /** Cleans up after a thread that ended: withdraws its wait and releases the lock if it held it. */
  releaseAbandoned(slot: number): void {
    const me = checkSlot(slot) + 1;
    Atomics.store(this.cells, 1 + slot, 0);
    if (Atomics.load(this.cells, OWNER) === me) this.#handOff(slot);
  }

  /** Whether some thread holds the lock (for tests and diagnostics). */
  get held(): boolean {
    return Atomics.load(this.cells, OWNER) !== 0;
  }

  #handOff(slot: number): void {
    // Next waiting slot after ours, round robin, so no thread starves.
    for (let i = 1; i <= WRITER_LOCK_SLOTS; i++) {
      const next = (slot + i) % WRITER_LOCK_SLOTS;
      if (Atomics.compareExchange(this.cells, 1 + next, WAITING, GRANTED) === WAITING) {
        Atomics.store(this.cells, OWNER, next + 1);
        Atomics.notify(this.cells, OWNER);
        return;
      }
    }
    Atomics.store(this.cells, OWNER, 0);
    // Wake only if a thread began waiting meanwhile (a futex wake per release is a system call). One that
    // marks itself waiting after this check reads the owner afterwards, sees 0, and takes the lock.
    for (let i = 0; i < WRITER_LOCK_SLOTS; i++) {
      if (Atomics.load(this.cells, 1 + i) === WAITING) {
        Atomics.notify(this.cells, OWNER);
        return;
      }
    }
  }

  async #wait(slot: number, deadline: number): Promise<void> {
    const me = slot + 1;
    const state = 1 + slot;
    Atomics.store(this.cells, state, WAITING);
    let timedOut = false;
    for (;;) {
      const owner = Atomics.load(this.cells, OWNER);
      if (owner === me) {
        // Handed over (our state is GRANTED).
        Atomics.store(this.cells, state, 0);
        return;
      }
      if (owner === 0 && !timedOut) {
        // Free and nobody is handing it over (a hand-off never passes through 0): take it.
        if (Atomics.compareExchange(this.cells, OWNER, 0, me) === 0) {
          Atomics.store(this.cells, state, 0);
          return;
        }
        continue;
      }
      const remaining = deadline - Date.now();
      if (!timedOut && remaining <= 0) {
        // Withdraw; if a hand-off to us has begun, it completes in a moment: take it after all.
        if (Atomics.compareExchange(this.cells, state, WAITING, 0) === WAITING) {
          throw new StorageError(
            'unavailable',
            'SQLite: the database is locked by another writer of this process for too long; retry',
          );
        }
        timedOut = true;
      }
      const waited = Atomics.waitAsync(this.cells, OWNER, owner, timedOut ? undefined : remaining);
      if (waited.async) await waited.value;
    }
  }
}

function checkSlot(slot: number): number {
  if (!Number.isInteger(slot) || slot < 0 || slot >= WRITER_LOCK_SLOTS) {
    throw new RangeError(`WriterLock: slot must be an integer from 0 to ${WRITER_LOCK_SLOTS - 1}`);
  }
  return slot;
}
