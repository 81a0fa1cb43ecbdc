/**
 * The subrequest budget of invocations: how many outbound requests (`fetch` of integration code) each
 * may make. Counted per deployment, since the gate a request comes through knows its deployment, not
 * its invocation: while `n` calls of a deployment are in flight they share `n x max`; exact for one call
 * at a time. Background work after the answer (`ctx.waitUntil`) counts against the last window.
 *
 * @example
 * const budget = new SubrequestBudget(50);
 * budget.begin(key, 'hello@1#abc');
 * budget.take(key); // null: allowed; a message once the 51st is asked for
 * budget.end(key);
 */
export class SubrequestBudget {
  readonly #windows = new Map<string, { inFlight: number; used: number; deploymentId: string }>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 0)
      throw new RangeError(`max must be a whole number >= 0, got ${max}`);
  }

  /** An invocation of deployment `key` starts (a new window when none of it is in flight). */
  begin(key: string, deploymentId: string): void {
    const window = this.#windows.get(key);
    if (window === undefined || window.inFlight === 0) {
      this.#windows.set(key, { inFlight: 1, used: 0, deploymentId });
    } else {
      window.inFlight += 1;
    }
  }

  /** An invocation of deployment `key` ended. */
  end(key: string): void {
    const window = this.#windows.get(key);
    if (window !== undefined) window.inFlight = Math.max(0, window.inFlight - 1);
  }

  /** Counts one outbound request of `key`: null when allowed, else the message its `fetch` throws. */
  readonly take = (key: string): string | null => {
    const window = this.#windows.get(key);
    if (window === undefined) return `subrequest refused: no invocation of this integration is running`;
    const allowed = this.max * Math.max(1, window.inFlight);
    if (window.used >= allowed) {
      return `integration ${window.deploymentId} reached its limit of ${this.max} subrequests per invocation (PLATFORM_INVOCATION_MAX_SUBREQUESTS)`;
    }
    window.used += 1;
    return null;
  };
}
