/**
 * Jobs handed to a job loop already leased (`JobLoop.adopt`) that found every slot busy: they wait here, in
 * the order they came, and start as slots free up, unless due work in the queue comes first. A job that
 * waited longer than `waitMs` is not started: it goes back to the queue, so no job starts with too little of
 * its lease left for the attempt (docs/architecture.md, "The runway").
 *
 * @example
 * const runway = new Runway<Job>(256, 2_500);
 * runway.push(jobs, clock.now());
 * const { run, stale } = runway.take(2, clock.now()); // start `run`, give `stale` back to the queue
 */
export class Runway<J> {
  /** Waiting jobs, oldest first (at most the sender's slots, `room` + concurrency: a few hundred). */
  #waiting: { job: J; at: number }[] = [];

  /**
   * @param room - the slots the job loop gives its sender on top of its concurrency (0 or more): jobs may also
   *   wait while claimed jobs hold the slots, so up to `room` + concurrency wait at once
   * @param waitMs - longest wait before a job goes back to the queue instead of starting
   */
  constructor(
    readonly room: number,
    readonly waitMs: number,
  ) {
    if (!(Number.isInteger(room) && room >= 0)) {
      throw new RangeError(`Runway: room must be a whole number (0 or more), got ${room}`);
    }
    if (!(waitMs > 0)) throw new RangeError(`Runway: waitMs must be positive, got ${waitMs}`);
  }

  /** Jobs waiting now. */
  get length(): number {
    return this.#waiting.length;
  }

  /**
   * Jobs that arrived at `now`, after those already waiting.
   *
   * @example
   * runway.push(adopted, clock.now());
   */
  push(jobs: readonly J[], now: number): void {
    for (const job of jobs) this.#waiting.push({ job, at: now });
  }

  /**
   * The next `max` jobs to start, oldest first, and before them every job that waited longer than `waitMs`
   * (to give back to the queue, in order).
   *
   * @example
   * const { run, stale } = runway.take(concurrency - active, clock.now());
   */
  take(max: number, now: number): { run: J[]; stale: J[] } {
    const fresh = this.#waiting.findIndex((entry) => now - entry.at <= this.waitMs);
    const staleCount = fresh === -1 ? this.#waiting.length : fresh;
    const taken = this.#waiting.splice(0, staleCount + Math.max(0, max)).map((entry) => entry.job);
    return { run: taken.slice(staleCount), stale: taken.slice(0, staleCount) };
  }

  /**
   * Every waiting job, oldest first; the runway is empty afterwards.
   *
   * @example
   * await release(runway.drain()); // the job loop stops: back to the queue
   */
  drain(): J[] {
    return this.#waiting.splice(0).map((entry) => entry.job);
  }
}
