import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { endpointHost } from './endpoint-host.js';

// Accepted events wait for company at moderate rates (`PLATFORM_ACCEPT_GATHER_MS`, docs/architecture.md
// "Group commit"), but not forever for company that cannot come: a publisher that posts one event at a time
// and waits for each 202 is the only client, so after a few waits that gathered nothing its events are
// written at once (`waitsForCompany` in jobs/group-commit.ts). A 50 ms wait makes each wait unmistakable.

const GATHER_MS = 50;
const EVENTS = 25;

describe.each(BACKENDS)('accepted events gathered (%s)', (backend) => {
  const h = endpointHost(backend, { PLATFORM_ACCEPT_GATHER_MS: String(GATHER_MS) });

  it('a publisher posting one event at a time stops waiting for company after a few lonely waits', async () => {
    const receiver = await h.receiver();
    const { res, placeId } = await h.install({ url: receiver.url });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const took: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const started = performance.now();
      await h.post({ type: 'space_content_updated', spaceId: placeId, revisionId: `rev-${i}` });
      took.push(performance.now() - started);
    }
    // Waiting every time it found the writer idle, every other event waited the full 50 ms (12 of 25, timers
    // that a busy machine can only make later). Now three lonely waits, then one group in 32: 3 of 25. Up to
    // 6 more may be slow on a busy machine for other reasons.
    const waited = took.filter((ms) => ms >= GATHER_MS - 5).length;
    expect(waited, `POST times (ms): ${took.map((ms) => Math.round(ms)).join(', ')}`).toBeLessThan(10);
    // Every event accepted is delivered.
    await receiver.waitFor(EVENTS, 20_000);
    const revisions = new Set(receiver.received.map((q) => JSON.parse(q.body).revisionId));
    expect(revisions.size).toBe(EVENTS);
  });
});
