import { describe, expect, it } from 'vitest';
import { afterExhausted, afterSucceeded, enable, HEALTHY, isTracked } from './health.js';

const H = 3_600_000;

describe('endpoint health (an injected clock: the times are arguments)', () => {
  it('disables after every delivery was exhausted for the threshold, not before', () => {
    let state = HEALTHY;
    const steps: boolean[] = [];
    for (const at of [0, 10 * H, 23 * H, 24 * H - 1, 24 * H, 25 * H]) {
      const next = afterExhausted(state, at, 24 * H);
      state = next.state;
      steps.push(next.disabled);
    }
    // disabled once, by the exhausted delivery at 24 h; later ones leave it disabled without a new event
    expect(steps).toEqual([false, false, false, false, true, false]);
    expect(state).toEqual({ failingSince: 0, disabledAt: 24 * H, enabledAt: null });
  });

  it('a success in between starts the run afresh', () => {
    let { state } = afterExhausted(HEALTHY, 0, 24 * H);
    state = afterSucceeded(state).state;
    expect(state).toEqual(HEALTHY);
    expect(isTracked(state)).toBe(false);
    const later = afterExhausted(state, 30 * H, 24 * H);
    expect(later).toEqual({
      state: { failingSince: 30 * H, disabledAt: null, enabledAt: null },
      disabled: false,
    });
  });

  it('0 never disables', () => {
    const { state } = afterExhausted(HEALTHY, 0, 0);
    expect(afterExhausted(state, 1000 * H, 0).disabled).toBe(false);
  });

  it('enabling restarts the run; the first success after it is a recovery, once', () => {
    const disabled = { failingSince: 0, disabledAt: 24 * H, enabledAt: null };
    expect(enable(HEALTHY, 1)).toBeNull();
    const enabled = enable(disabled, 30 * H)!;
    expect(enabled).toEqual({ failingSince: null, disabledAt: null, enabledAt: 30 * H });
    // still failing after enabling: disabled again only after the full threshold
    expect(afterExhausted(enabled, 31 * H, 24 * H).disabled).toBe(false);
    const recovered = afterSucceeded(enabled);
    expect(recovered).toEqual({ state: HEALTHY, recovered: true });
    expect(afterSucceeded(recovered.state).recovered).toBe(false);
  });

  it('a success while disabled (an attempt in flight) leaves it disabled', () => {
    const disabled = { failingSince: 0, disabledAt: 24 * H, enabledAt: null };
    expect(afterSucceeded(disabled)).toEqual({
      state: { failingSince: null, disabledAt: 24 * H, enabledAt: null },
      recovered: false,
    });
  });
});
