/**
 * Endpoint health (docs/contracts.md "Endpoint health"): when a webhook endpoint is disabled, and when it
 * has recovered. Pure functions; storage keeps the state (`storage.endpointHealth`) and the delivery engine
 * applies the decisions.
 */

/** What is known of an endpoint that is failing, disabled, or re-enabled and not yet delivered to. */
export interface EndpointHealthState {
  /** When the current run of exhausted deliveries began (ms); null: no delivery exhausted since the last success. */
  failingSince: number | null;
  /** When the endpoint was disabled (ms); null: enabled. */
  disabledAt: number | null;
  /** When it was enabled again after being disabled (ms), until a delivery to it succeeds; else null. */
  enabledAt: number | null;
}

/** A healthy endpoint's state (no record is kept for it). */
export const HEALTHY: EndpointHealthState = { failingSince: null, disabledAt: null, enabledAt: null };

/**
 * After a delivery to the endpoint ended `exhausted` at `now`: the run of failures starts (or goes on), and
 * the endpoint is disabled once the run has lasted `disableAfterMs` with no success (0: never disabled).
 * `disabled` is true only for the exhausted delivery that disables it.
 *
 * @example
 * afterExhausted(HEALTHY, 1000, 5000); // { state: { failingSince: 1000, disabledAt: null, enabledAt: null }, disabled: false }
 * afterExhausted({ failingSince: 1000, disabledAt: null, enabledAt: null }, 6000, 5000).disabled; // true
 */
export function afterExhausted(
  state: EndpointHealthState,
  now: number,
  disableAfterMs: number,
): { state: EndpointHealthState; disabled: boolean } {
  const failingSince = state.failingSince ?? now;
  if (state.disabledAt !== null) return { state: { ...state, failingSince }, disabled: false };
  const disable = disableAfterMs > 0 && now - failingSince >= disableAfterMs;
  return { state: { ...state, failingSince, disabledAt: disable ? now : null }, disabled: disable };
}

/**
 * After a delivery to the endpoint succeeded: it is healthy again. `recovered` when it had been disabled
 * and enabled again since (the `endpoint.recovered` operator event).
 *
 * @example
 * afterSucceeded({ failingSince: null, disabledAt: null, enabledAt: 9000 }); // { state: HEALTHY, recovered: true }
 */
export function afterSucceeded(state: EndpointHealthState): {
  state: EndpointHealthState;
  recovered: boolean;
} {
  // A success while disabled (an attempt that was in flight when it was disabled) leaves it disabled: the
  // operator or the subscriber enables it.
  if (state.disabledAt !== null) return { state: { ...state, failingSince: null }, recovered: false };
  return { state: HEALTHY, recovered: state.enabledAt !== null };
}

/**
 * Enabling a disabled endpoint: the run of failures starts afresh (a new one disables it again after the
 * full `disableAfterMs`). Null when it is not disabled.
 *
 * @example
 * enable({ failingSince: 0, disabledAt: 5000, enabledAt: null }, 9000); // { failingSince: null, disabledAt: null, enabledAt: 9000 }
 */
export function enable(state: EndpointHealthState, now: number): EndpointHealthState | null {
  if (state.disabledAt === null) return null;
  return { failingSince: null, disabledAt: null, enabledAt: now };
}

/** Whether a state is worth keeping (anything but healthy). */
export function isTracked(state: EndpointHealthState): boolean {
  return state.failingSince !== null || state.disabledAt !== null || state.enabledAt !== null;
}
