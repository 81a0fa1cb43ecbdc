import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { type EndpointHost, endpointHost } from './endpoint-host.js';

// Accepted events wait for company at moderate rates (`PLATFORM_ACCEPT_GATHER_MS`, docs/architecture.md
// "Write batching"), but not forever for company that cannot come: a publisher that posts one event at a time
// and waits for each 202 is the only client, so after a few waits that gathered nothing its events are
// written at once, and a wait that holds the company recent waits found ends there (`CompanyWaits` in
// jobs/company-waits.ts). A 50 ms wait makes each wait unmistakable.

const GATHER_MS = 50;

/**
 * A publisher that keeps `inFlight` events in flight: `rounds` rounds of that many POSTs at once, each round
 * after the last one's 202s, to a webhook installation of its own. Checks that every event was delivered;
 * returns how long each round took (ms).
 */
async function publish(h: EndpointHost, inFlight: number, rounds: number): Promise<number[]> {
  const receiver = await h.receiver();
  const { res, placeId } = await h.install({ url: receiver.url });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const took: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, (_, i) =>
        h.post({ type: 'space_content_updated', spaceId: placeId, revisionId: `rev-${round}-${i}` }),
      ),
    );
    took.push(performance.now() - started);
  }
  await receiver.waitFor(inFlight * rounds, 20_000);
  const revisions = new Set(receiver.received.map((q) => JSON.parse(q.body).revisionId));
  expect(revisions.size).toBe(inFlight * rounds);
  return took;
}

/** How many rounds took the wait's length or more, with the rounds' times in its failure message. */
function waitedIn(took: readonly number[]): [number, string] {
  const waited = took.filter((ms) => ms >= GATHER_MS - 5).length;
  return [waited, `round times (ms): ${took.map((ms) => Math.round(ms)).join(', ')}`];
}

describe.each(BACKENDS)('accepted events gathered (%s)', (backend) => {
  const h = endpointHost(backend, { PLATFORM_ACCEPT_GATHER_MS: String(GATHER_MS) });

  it('a publisher posting one event at a time stops waiting for company after a few lonely waits', async () => {
    const [waited, times] = waitedIn(await publish(h, 1, 25));
    // Waiting every time it found the writer idle, every other event waited the full 50 ms (12 of 25, timers
    // that a busy machine can only make later). Now three lonely waits, then one group in 32: 3 of 25. Up to
    // 6 more may be slow on a busy machine for other reasons.
    expect(waited, times).toBeLessThan(10);
  });
});

// A host of its own: what the host above learnt of its waits (lonely ones) would change what this one does.
describe.each(BACKENDS)('accepted events gathered, several in flight (%s)', (backend) => {
  const h = endpointHost(backend, { PLATFORM_ACCEPT_GATHER_MS: String(GATHER_MS) });

  it('a publisher with 4 events in flight: once a wait has gathered its 4, later waits end at the fourth', async () => {
    const [waited, times] = waitedIn(await publish(h, 4, 24));
    // Each round's four events arrive together. With every wait running its full 50 ms, every other round
    // waited (12 of 24: the round after a wait comes too late to wait); now one full wait learns that four
    // come, and the waits after it end with the fourth event. Up to 6 rounds may be slow on a busy machine
    // for other reasons.
    expect(waited, times).toBeLessThan(8);
  });
});
