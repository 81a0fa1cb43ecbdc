import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryStats } from '../src/api-contract.js';
import { BACKENDS } from './backends.js';
import { eventually, type Receiver, startReceiver, startTestHost, type TestHost } from './helpers.js';

const sum = (series: DeliveryStats, key: 'attempts' | 'succeeded' | 'retried' | 'failed') =>
  series.buckets.reduce((n, b) => n + b[key], 0);

/**
 * Charts (docs/operations.md "Charts"): a real receiver answering 200 for one installation and 500 for
 * another, events posted, the rollup run by the host itself (every 200 ms here), and
 * `GET /v1/stats/deliveries` counting each attempt once, by outcome, with plausible percentiles.
 */
for (const backend of BACKENDS) {
  describe(`delivery statistics (${backend})`, () => {
    let t: TestHost;
    let ok: Receiver;
    let failing: Receiver;
    beforeAll(async () => {
      t = await startTestHost(
        { PLATFORM_ALLOW_PRIVATE_TARGETS: '1', PLATFORM_STATS_INTERVAL_MS: '200' },
        backend,
      );
      ok = await startReceiver();
      failing = await startReceiver((_r, res) => res.writeHead(500).end('down'));
    });
    afterAll(async () => {
      await Promise.all([ok?.close(), failing?.close()]);
      await t?.close();
    });

    const install = async (url: string, space: string) => {
      const res = await t.api<{ id: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space,
        configuration: { url, space_content_updated: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    /** Posts `count` content updates of `spaceId` (revisions r0, r1, ...), each accepted. */
    const postUpdates = async (spaceId: string, count: number) => {
      for (let i = 0; i < count; i += 1) {
        const res = await t.api('POST', '/v1/events', {
          type: 'space_content_updated',
          spaceId,
          revisionId: `r${i}`,
        });
        expect(res.status).toBe(202);
      }
    };
    const stats = async (query: string) => {
      const res = await t.api<DeliveryStats>('GET', `/v1/stats/deliveries?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    it('counts 2xx, retried and exhausted attempts per minute, host-wide and per installation, with percentiles and backlog', async () => {
      const good = await install(ok.url, 'space-ok');
      const bad = await install(failing.url, 'space-bad');
      await postUpdates('space-ok', 5);
      await postUpdates('space-bad', 2);
      // 5 × 200; 2 deliveries × 4 attempts of 500 (3 retried, the 4th exhausted): 13 attempts.
      await ok.waitFor(5);
      await failing.waitFor(8, 30_000);
      // The last bucket is the minute of the query; a query just after a minute turned can come before
      // the rollup (every 200 ms) has sampled the backlog into it: wait for that too.
      const host = await eventually(
        async () => {
          const series = await stats('range=hour');
          const counted = sum(series, 'attempts') === 13 && sum(series, 'failed') === 2;
          return counted && series.buckets.at(-1)?.backlog ? series : null;
        },
        30_000,
        'the rollup to count 13 attempts and sample the backlog into the current minute',
      );
      expect(host).toMatchObject({ range: 'hour', installationId: null, bucketSeconds: 60 });
      expect(host.buckets).toHaveLength(60);
      expect(host.rolledUpAt).not.toBeNull();
      expect([sum(host, 'succeeded'), sum(host, 'retried'), sum(host, 'failed')]).toEqual([5, 6, 2]);
      const busy = host.buckets.filter((b) => b.attempts > 0);
      for (const b of busy) {
        expect(b.duration.p50).not.toBeNull();
        expect(b.duration.p50!).toBeLessThan(2000);
        expect(b.duration.p99!).toBeGreaterThanOrEqual(b.duration.p50!);
        expect(b.successRate).toBe(b.succeeded / b.attempts);
      }
      // Every delivery's first attempt: 7 of them, within seconds of acceptance.
      const firsts = busy.filter((b) => b.firstAttempt.p50 !== null);
      expect(firsts.length).toBeGreaterThan(0);
      for (const b of firsts) expect(b.firstAttempt.p99!).toBeLessThan(5000);
      // The backlog is sampled into the current minute (nothing waits now).
      expect(host.buckets.at(-1)?.backlog).toEqual({ queued: 0, due: 0 });

      const badSeries = await stats(`range=hour&installation=${bad}`);
      expect([
        sum(badSeries, 'attempts'),
        sum(badSeries, 'succeeded'),
        sum(badSeries, 'retried'),
        sum(badSeries, 'failed'),
      ]).toEqual([8, 0, 6, 2]);
      const goodSeries = await stats(`range=day&installation=${good}`);
      expect(goodSeries.buckets).toHaveLength(288);
      expect([sum(goodSeries, 'attempts'), sum(goodSeries, 'succeeded'), sum(goodSeries, 'failed')]).toEqual([
        5, 5, 0,
      ]);
      // The week is made of hour rows: the same totals.
      const week = await eventually(async () => {
        const series = await stats('range=week');
        return sum(series, 'attempts') === 13 ? series : null;
      });
      expect(week.buckets).toHaveLength(168);
      expect(sum(week, 'succeeded')).toBe(5);

      // Rolled up again and again (every 200 ms): nothing is counted twice.
      const seen = host.rolledUpAt;
      await eventually(async () => (await stats('range=hour')).rolledUpAt !== seen);
      expect(sum(await stats('range=hour'), 'attempts')).toBe(13);
      expect((await t.api('GET', '/v1/stats/deliveries?installation=inst_missing')).status).toBe(404);
    }, 60_000);
  });
}
