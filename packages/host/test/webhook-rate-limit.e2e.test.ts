import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { endpointHost } from './endpoint-host.js';

// Rate limit per endpoint (docs/contracts.md "Endpoint settings", `rate_limit`): deliveries beyond it wait
// in the queue (no attempt spent), none is dropped, and another endpoint is not slowed down. Generous
// bounds: this runs on 2 shared cores (the measured figures are in docs/benchmarks.md).

const EVENTS = 15;
const RATE = 5;

/** The most requests that arrived within any window of `ms`. */
function busiestWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe.each(BACKENDS)('webhook rate limit (%s)', (backend) => {
  const h = endpointHost(backend);

  it('holds a limited endpoint to its rate, drops nothing, and leaves another endpoint unaffected', async () => {
    const limited = await h.receiver();
    const free = await h.receiver();
    const a = await h.install({ url: limited.url, rate_limit: RATE });
    const b = await h.install({ url: free.url });
    expect(a.res.status, JSON.stringify(a.res.body)).toBe(201);
    expect(a.res.body.configuration.rate_limit).toBe(RATE);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: EVENTS }, (_, i) => [
        h.post({ type: 'space_content_updated', spaceId: a.placeId, revisionId: `rev-${i}` }),
        h.post({ type: 'space_content_updated', spaceId: b.placeId, revisionId: `rev-${i}` }),
      ]).flat(),
    );
    await free.waitFor(EVENTS, 10_000);
    const freeDone = Date.now() - started;
    await limited.waitFor(EVENTS, 20_000);
    const limitedDone = Date.now() - started;

    // The free endpoint got everything before a limit of 5/s would have let 15 through (≥ 2.8 s): it was not
    // held to the other endpoint's rate. (No tighter bound: a busy machine may take seconds to deliver 15.)
    expect(freeDone).toBeLessThan(((EVENTS - 1) / RATE) * 1000);
    expect(limitedDone).toBeGreaterThanOrEqual(((EVENTS - 1) / RATE) * 1000 - 100);
    // Never more than the rate in any second at the receiver (two extra allowed: a request delayed by a busy
    // machine arrives together with the next ones; unlimited, all 15 arrive within a second).
    const arrivals = limited.received.map((q) => q.at);
    expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(RATE + 2);
    // Nothing dropped, nothing sent twice, no attempt spent waiting.
    const ids = limited.received.map((q) => JSON.parse(q.body).revisionId).sort();
    expect(new Set(ids).size).toBe(EVENTS);
    const deliveries = await h.settled(a.res.body.id, EVENTS);
    expect(deliveries.every((d) => d.state === 'succeeded' && d.attempts.length === 1)).toBe(true);
    expect(limited.received.every((q) => q.headers['x-platform-delivery-attempt'] === '1')).toBe(true);
  });

  it('refuses a rate limit that is not a whole number from 1 to 10000, naming it', async () => {
    const r = await h.receiver();
    for (const rate_limit of [0, 2.5, 'fast', 10_001]) {
      const { res } = await h.install({ url: r.url, rate_limit });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('configuration.rate_limit');
    }
  });
});
