/** Waits in a row that gathered nothing, after which a group no longer waits for company. */
export const LONELY_WAITS = 3;
/**
 * One wait in this many runs as it would without what the waits before it learnt: while waits gather
 * nothing, one group in this many still waits (it notices company coming back); while waits end as soon as
 * the company they expect has come, one wait in this many runs its full length (it notices more coming).
 */
export const PROBE_EVERY = 32;
/** How many full-length waits the expected company is learnt from. */
export const RECENT_WAITS = 8;

/**
 * Whether a group that `shouldGather` would make wait does wait, given the waits just before it:
 * `lonely`, how many in a row ended with nothing but their first item, and `skipped`, how many groups were
 * written without their wait since the last one. Waiting pays when items come from many independent
 * clients (at 1 000 events/s, 99 of 100 waits of 2 ms found company); it only delays a publisher that posts
 * one item at a time and waits for each answer, whose next item cannot come during the wait (its throughput
 * fell from about 1 300 to 500 events/s with a 2 ms wait; both in docs/benchmarks.md). So after
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

/**
 * The company a wait can expect: the largest group among the last full-length waits (`recent`), or
 * `Infinity` (no early end) when they gathered nothing or there are none yet. Publishers that keep N
 * requests in flight send their next N together, right after their answers: every full wait gathers N,
 * and a wait that holds N has all the company it will get, so it ends there instead of idling out its
 * length. From independent clients the groups vary; their recent largest is rarely reached early.
 *
 * @example
 * expectedCompany([4, 4, 3, 4]); // 4
 * expectedCompany([1, 1]); // Infinity: lonely waits expect nothing
 */
export function expectedCompany(recent: readonly number[]): number {
  const most = Math.max(0, ...recent);
  return most >= 2 ? most : Number.POSITIVE_INFINITY;
}

/**
 * What a group commit has learnt of its waits for company (`gatherMs`), and so whether a group waits
 * ({@link waitsForCompany}) and when a wait ends early ({@link expectedCompany}). No clock, no timer: the
 * group commit tells it what happened.
 *
 * @example
 * const waits = new CompanyWaits();
 * if (waits.start()) {
 *   // arm the wait's timer; at each item that joins: if (waits.joined(size)) end the wait now
 *   // when the timer fires: waits.ended(size)
 * }
 */
export class CompanyWaits {
  #lonely = 0;
  #skipped = 0;
  /** Waits started, counted round to {@link PROBE_EVERY}: the one at 0 is a probe. */
  #waits = 0;
  #recent: number[] = [];
  #expected = Number.POSITIVE_INFINITY;
  /** Whether the wait under way may end once its expected company has come (not a probe). */
  #mayEndEarly = false;

  /** A group would wait for company: whether it does (false: it is written at once). */
  start(): boolean {
    if (!waitsForCompany(this.#lonely, this.#skipped)) {
      this.#skipped += 1;
      return false;
    }
    this.#skipped = 0;
    this.#waits = (this.#waits + 1) % PROBE_EVERY;
    this.#mayEndEarly = this.#waits !== 0;
    return true;
  }

  /** An item joined the waiting group, which now holds `size`: whether the wait ends now. */
  joined(size: number): boolean {
    if (!(this.#mayEndEarly && size >= this.#expected)) return false;
    this.#lonely = 0;
    return true;
  }

  /** The wait ran its full length, and its group holds `size`. */
  ended(size: number): void {
    this.#lonely = size > 1 ? 0 : this.#lonely + 1;
    this.#recent.push(size);
    if (this.#recent.length > RECENT_WAITS) this.#recent.shift();
    this.#expected = expectedCompany(this.#recent);
  }

  /**
   * The wait ended because its group reached the largest a group may be: it found company, but tells
   * nothing of what its whole length would have gathered.
   */
  filled(): void {
    this.#lonely = 0;
  }
}
