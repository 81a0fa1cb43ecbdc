/** Endpoints, and deferred deliveries, whose turns a schedule keeps (past this, it starts over). */
const MAX_ENTRIES = 100_000;

/** What {@link RateSchedule.plan} decides for one delivery. */
export type RateTurn = { send: number } | { defer: number };

/**
 * The send schedule of rate-limited endpoints (docs/contracts.md "Endpoint settings", `rate_limit`): each
 * endpoint's deliveries get turns at least `1000 / rate` ms apart (at most `rate` per second), in the order
 * they are planned. Pure bookkeeping with the time passed in. The delivery engine sends a delivery whose
 * turn comes within `holdMs` (waiting for it with its slot) and puts the others back in the queue due at
 * their turn, which stays theirs: they wait without holding a slot, are never dropped and spend no attempt.
 * A schedule is per process: several hosts on one database each keep an endpoint to its rate.
 *
 * @example
 * const schedule = new RateSchedule();
 * schedule.plan('inst_1', 10, ['d1', 'd2'], 1_000, 50); // [{ send: 1000 }, { defer: 1100 }]
 * schedule.plan('inst_1', 10, ['d2'], 1_100, 50); // [{ send: 1100 }]: d2's turn
 */
export class RateSchedule {
  /** Per endpoint: its next free turn, and its last `rate` sends (planned times, ascending). */
  readonly #next = new Map<string, { turn: number; sent: number[] }>();
  /** Per deferred delivery: its turn. */
  readonly #turns = new Map<string, number>();
  /** Per endpoint: when its last `rate` requests actually left (ascending). */
  readonly #left = new Map<string, number[]>();

  /**
   * The last check before a request of endpoint `key` leaves at `now`: 0 when fewer than `rate` left in
   * the second before (the request is counted), else how many ms to wait before asking again. It holds the
   * limit on what actually leaves, when a busy process sends planned requests late and together.
   *
   * @example
   * schedule.admit('inst_1', 2, 0); // 0
   * schedule.admit('inst_1', 2, 10); // 0
   * schedule.admit('inst_1', 2, 20); // 980
   */
  admit(key: string, rate: number, now: number): number {
    let left = this.#left.get(key);
    if (!left) {
      if (this.#left.size >= MAX_ENTRIES) this.#left.clear();
      left = [];
      this.#left.set(key, left);
    }
    while (left.length > 0 && (left[0]! <= now - 1000 || left.length > rate)) left.shift();
    if (left.length < rate) {
      left.push(now);
      return 0;
    }
    return left[0]! + 1000 - now;
  }

  /**
   * Turns for deliveries `ids` of endpoint `key` limited to `rate` per second, claimed at `now`. A delivery
   * is sent at its turn, or later if `rate` deliveries of the endpoint were sent within the second before
   * (a sliding window: never more than `rate` in any second; a delivery claimed late is caught up on, not
   * pushing the others back).
   */
  plan(key: string, rate: number, ids: readonly string[], now: number, holdMs: number): RateTurn[] {
    const interval = 1000 / rate;
    let state = this.#next.get(key);
    if (!state) {
      if (this.#next.size >= MAX_ENTRIES) this.#next.clear();
      state = { turn: now, sent: [] };
      this.#next.set(key, state);
    }
    const endpoint = state;
    return ids.map((id) => {
      let turn = this.#turns.get(id);
      if (turn === undefined) {
        turn = Math.max(now, endpoint.turn);
        endpoint.turn = turn + interval;
      }
      const windowOpens =
        endpoint.sent.length >= rate ? endpoint.sent[endpoint.sent.length - rate]! + 1000 : turn;
      const at = Math.ceil(Math.max(turn, now, windowOpens));
      if (at <= now + holdMs) {
        this.#turns.delete(id);
        endpoint.sent.push(at);
        if (endpoint.sent.length > 1 && endpoint.sent.at(-2)! > at) endpoint.sent.sort((x, y) => x - y);
        if (endpoint.sent.length > rate) endpoint.sent.splice(0, endpoint.sent.length - rate);
        return { send: at };
      }
      if (this.#turns.size >= MAX_ENTRIES && !this.#turns.has(id)) this.#turns.clear();
      this.#turns.set(id, at);
      return { defer: at };
    });
  }
}
