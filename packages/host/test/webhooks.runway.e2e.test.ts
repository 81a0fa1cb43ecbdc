import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import { ADMIN_TOKEN, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

/** A counter's value in the host's /metrics (0 when absent). */
async function counter(t: TestHost, series: string): Promise<number> {
  const res = await fetch(`${t.host.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * The runway (docs/architecture.md): the delivery thread offers the accepting thread 4 × its slots more than
 * it has, so a burst's first attempts wait for a slot in the thread's memory, already leased, instead of
 * being queued and claimed back. Two slots here (room for 8 more), a receiver that takes 50 ms per request,
 * and 12 events posted at once: without the runway at most 2 are handed over and at least 10 claimed.
 */
describe.each(BACKENDS)('the runway (%s)', (backend) => {
  let t: TestHost | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('a burst beyond the free slots is delivered from memory, each once, with at most a few claims', async () => {
    // No idle check during the test: while one runs the thread wants queued work first (for a few ms), and a
    // group accepted then would be queued and claimed, which is right but not what this test counts.
    t = await startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_CONCURRENCY: '2',
        PLATFORM_QUEUE_POLL_MS: '60000',
      },
      backend,
    );
    const host = t;
    receiver = await startReceiver((_request, res) => {
      setTimeout(() => res.writeHead(200).end('{"received":true}'), 50);
    });
    const installed = await host.api('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'runway',
      configuration: { url: receiver.url, space_content_updated: true },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const claimedBefore = await counter(host, 'platform_queue_claimed_total');

    const posted = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        host.api('POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId: 'runway',
          revisionId: `r${i}`,
          eventId: `evt_runway_${i}`,
        }),
      ),
    );
    expect(posted.map((res) => res.status)).toEqual(Array(12).fill(202));

    const received = await receiver.waitFor(12, 20_000);
    const events = received.map((r) => (JSON.parse(r.body) as { eventId: string }).eventId);
    expect(new Set(events).size).toBe(12);
    expect(events.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `evt_runway_${i}`).sort());
    // Only what found neither a slot nor room on the runway went through the queue.
    const claimed = (await counter(host, 'platform_queue_claimed_total')) - claimedBefore;
    expect(claimed).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(12); // nothing delivered twice
  });
});
