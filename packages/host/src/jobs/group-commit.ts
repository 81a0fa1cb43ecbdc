import { CompanyWaits } from './company-waits.js';

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions<I, R> {
  /**
   * Does the work of several items together (typically in ONE transaction) and returns one result per
   * item, in order. If it throws, every item of the group is retried alone (`run([item])`), so one bad
   * item fails only its own caller.
   */
  run(items: readonly I[]): Promise<R[]>;
  /**
   * Whether a failure of the group may come from one of its items, so that retrying each alone makes
   * sense. Default: always. Say no for failures that would fail every item again (the database is
   * unavailable), or every caller waits for one more failure per item before hearing of it.
   */
  isolate?: (error: unknown) => boolean;
  /** Largest group. Default 256. */
  maxBatch?: number;
  /** Defers the first flush; default `setImmediate` (after the I/O callbacks of this event-loop turn). */
  schedule?: (flush: () => void) => void;
  /**
   * Company for a group that would start alone, at moderate rates: an item submitted less than `gatherMs`
   * after the one before it, while no group is being written or waits, starts a group that is written
   * `gatherMs` later (or as soon as it holds `maxBatch` items) instead of at once. A lone item (the one before
   * came longer ago) is written as `schedule` says. Waits that keep gathering nothing stop, and a wait ends
   * once it holds the company recent waits found (`CompanyWaits` in company-waits.ts). Default 0: never
   * wait. See {@link shouldGather}.
   */
  gatherMs?: number;
  /** The clock for `gatherMs` (ms); default `performance.now`. */
  now?: () => number;
}

/**
 * Whether a group that would start with the item submitted at `now` waits `gatherMs` for others: only when
 * items arrive closer together than that (the one before came at `previousAt`), so that the wait is likely
 * to gather some. At 1 000 items/s and 2 ms, groups of about three instead of one each; at 100/s, no wait.
 *
 * @example
 * shouldGather(10.5, 10, 2); // true: the one before came 0.5 ms ago
 * shouldGather(30, 10, 2); // false: 20 ms ago, a wait would gather nothing
 */
export function shouldGather(now: number, previousAt: number, gatherMs: number): boolean {
  return gatherMs > 0 && now - previousAt < gatherMs;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted during one event-loop turn, or while the previous group is still being
 * written, are handled together by one `run` call. For SQLite that is one transaction (one BEGIN, one
 * COMMIT, one write lock hand-off) for many concurrent requests instead of one each. Each caller still
 * gets its own result, and only once its group is durable.
 *
 * @example
 * const events = new GroupCommit({ run: (items) => storage.transaction((tx) => insertAll(tx, items)) });
 * const result = await events.submit(event);
 */
export class GroupCommit<I, R> {
  readonly #run: (items: readonly I[]) => Promise<R[]>;
  readonly #isolate: (error: unknown) => boolean;
  readonly #maxBatch: number;
  readonly #schedule: (flush: () => void) => void;
  readonly #gatherMs: number;
  readonly #now: () => number;
  #pending: Pending<I, R>[] = [];
  #scheduled = false;
  #running = false;
  /** The gathering wait of the next group, while it runs. */
  #gathering: ReturnType<typeof setTimeout> | undefined;
  #lastSubmitAt = Number.NEGATIVE_INFINITY;
  readonly #waits = new CompanyWaits();

  constructor(options: GroupCommitOptions<I, R>) {
    this.#run = options.run;
    this.#isolate = options.isolate ?? (() => true);
    this.#maxBatch = options.maxBatch ?? 256;
    this.#schedule = options.schedule ?? ((flush) => setImmediate(flush));
    this.#gatherMs = options.gatherMs ?? 0;
    if (!(this.#gatherMs >= 0))
      throw new RangeError(`GroupCommit: gatherMs must be >= 0, got ${options.gatherMs}`);
    this.#now = options.now ?? (() => performance.now());
  }

  /** Queues `item`; resolves with its result once its group has been written. */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      const previousAt = this.#lastSubmitAt;
      if (this.#gatherMs > 0) this.#lastSubmitAt = this.#now();
      if (this.#gathering !== undefined) {
        const size = this.#pending.length;
        if (size >= this.#maxBatch) {
          this.#waits.filled(); // full: no reason to wait longer
          this.#endWait();
        } else if (this.#waits.joined(size)) {
          this.#endWait(); // the company recent waits found has come: the rest of the wait would idle
        }
        return;
      }
      if (this.#scheduled || this.#running) return; // the running group's end flushes this one
      this.#scheduled = true;
      if (shouldGather(this.#lastSubmitAt, previousAt, this.#gatherMs) && this.#waits.start()) {
        this.#gathering = setTimeout(() => {
          this.#waits.ended(this.#pending.length);
          this.#endWait();
        }, this.#gatherMs);
      } else {
        this.#schedule(() => {
          this.#scheduled = false;
          this.#flush();
        });
      }
    });
  }

  #endWait(): void {
    if (this.#gathering !== undefined) clearTimeout(this.#gathering);
    this.#gathering = undefined;
    this.#scheduled = false;
    this.#flush();
  }

  #flush(): void {
    if (this.#running || this.#pending.length === 0) return;
    const group = this.#pending.splice(0, this.#maxBatch);
    this.#running = true;
    void this.#write(group).finally(() => {
      this.#running = false;
      this.#flush(); // what arrived meanwhile: the next group, at once
    });
  }

  async #write(group: Pending<I, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.#run(group.map((entry) => entry.item));
      if (results.length !== group.length) {
        throw new Error(`GroupCommit: run returned ${results.length} results for ${group.length} items`);
      }
    } catch (error) {
      if (group.length === 1 || !this.#isolate(error)) {
        for (const entry of group) entry.reject(error);
        return;
      }
      // One of them may be the cause: each alone, so the others still succeed.
      for (const entry of group) {
        try {
          const [result] = await this.#run([entry.item]);
          entry.resolve(result as R);
        } catch (alone) {
          entry.reject(alone);
        }
      }
      return;
    }
    group.forEach((entry, i) => {
      entry.resolve(results[i] as R);
    });
  }
}
