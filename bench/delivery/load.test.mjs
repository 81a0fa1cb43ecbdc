// How the benchmark's load generator spreads a burst over several hosts (load.mjs, `balance`): two real
// HTTP servers on 127.0.0.1 stand in for two hosts, one answering at once and one after 50 ms.
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventPoster } from './load.mjs';

/** A server answering 202 after `delayMs`; counts the events it got and the most it held at once. */
async function fakeHost(delayMs) {
  const seen = { events: 0, inFlight: 0, mostInFlight: 0 };
  const server = createServer((req, res) => {
    seen.inFlight += 1;
    seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        seen.events += 1;
        seen.inFlight -= 1;
        res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
      }, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('eventPoster over several hosts', () => {
  const open = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });

  async function burst(balance) {
    const fast = await fakeHost(0);
    const slow = await fakeHost(50);
    open.push(fast, slow);
    const poster = eventPoster({
      hostUrls: [fast.url, slow.url],
      adminToken: 'token',
      installationId: 'inst_test',
      connections: 8,
      balance,
    });
    open.push(poster);
    const { results } = await poster.burst(160, 8);
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(fast.seen.events + slow.seen.events).toBe(160);
    return { fast: fast.seen, slow: slow.seen, results };
  }

  it('turns: the same number of events to each host, and the slower one ends up holding most of those in flight', async () => {
    const { fast, slow, results } = await burst('turns');
    expect([fast.events, slow.events]).toEqual([80, 80]);
    expect(results.filter((r) => r.host === 1)).toHaveLength(80);
    expect(slow.mostInFlight).toBeGreaterThanOrEqual(6);
  });

  it('least: each event to the host with the fewest in flight, so the faster one takes more and the slower one never holds the lot', async () => {
    const { fast, slow, results } = await burst('least');
    expect(fast.events).toBeGreaterThan(2 * slow.events);
    expect(results.filter((r) => r.host === 0)).toHaveLength(fast.events);
    expect(slow.mostInFlight).toBeLessThanOrEqual(5);
  });

  it('rejects an unknown balance', () => {
    expect(() =>
      eventPoster({ hostUrls: ['http://127.0.0.1:1'], connections: 1, balance: 'random' }),
    ).toThrow(/balance must be "turns" or "least"; got "random"/);
  });
});
