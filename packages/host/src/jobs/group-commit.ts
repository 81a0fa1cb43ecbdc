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
   * came longer ago) is written as `schedule` says. Waits that keep gathering nothing stop: see
   * {@link waitsForCompany}. Default 0: never wait. See {@link shouldGather}.
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

/** Waits in a row that gathered nothing, after which a group no longer waits for company. */
export const LONELY_WAITS = 3;
/** While waits gather nothing, one group in this many still waits: it notices company coming back. */
export const PROBE_EVERY = 32;

/**
 * Whether a group that {@link shouldGather} would make wait does wait, given the waits just before it:
 * `lonely`, how many in a row ended with nothing but their first item, and `skipped`, how many groups were
 * written without their wait since the last one. Waiting pays when items come from many independent
 * clients (at 1 000 events/s a 2 ms wait finds company nine times in ten); it only delays a publisher that
 * posts one item at a time and waits for each answer, whose next item cannot come during the wait (its
 * throughput fell from 1 300 to 480 events/s with a 2 ms wait, docs/benchmarks.md). So after
 * {@link LONELY_WAITS} lonely waits in a row, groups are written at once, except one in {@link PROBE_EVERY}.
 *
 * @example
 * waitsForCompany(0, 0); // true: waits have been finding company
 * waitsForCompany(3, 4); // false: three lonely waits in a row, and not yet the probe's turn
 * waitsForCompany(3, 31); // true: the thirty-second group probes
 */
export function waitsForCompany(lonely: number, skipped: number): boolean {
  return lonely < LONELY_WAITS || skipped >= PROBE_EVERY - 1;
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
  /** Waits in a row whose group held only its first item when the wait ended. */
  #lonelyWaits = 0;
  /** Groups written without their wait since the last wait (see {@link waitsForCompany}). */
  #skippedWaits = 0;

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
      if (this.#gathering !== undefined && this.#pending.length >= this.#maxBatch) {
        clearTimeout(this.#gathering); // full: no reason to wait longer
        this.#lonelyWaits = 0;
        this.#endWait();
        return;
      }
      if (this.#scheduled || this.#running) return; // the running group's end flushes this one
      this.#scheduled = true;
      const gather = shouldGather(this.#lastSubmitAt, previousAt, this.#gatherMs);
      if (gather && waitsForCompany(this.#lonelyWaits, this.#skippedWaits)) {
        this.#skippedWaits = 0;
        this.#gathering = setTimeout(() => {
          this.#lonelyWaits = this.#pending.length > 1 ? 0 : this.#lonelyWaits + 1;
          this.#endWait();
        }, this.#gatherMs);
      } else {
        if (gather) this.#skippedWaits += 1;
        this.#schedule(() => {
          this.#scheduled = false;
          this.#flush();
        });
      }
    });
  }

  #endWait(): void {
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
