import { describe, expect, it } from 'vitest';
import type { QueueStats } from '../storage/index.js';
import { createDeliveryMetrics, createHostMetrics, scrapeText } from './index.js';

const line = (text: string, series: string) => text.split('\n').find((l) => l.startsWith(`${series} `));

describe('createHostMetrics', () => {
  it('reads the queue once per scrape and turns the oldest due time into an age (injected clock)', async () => {
    let reads = 0;
    const stats: QueueStats[] = [
      { kind: 'deliver', queued: 7, held: 40, due: 5, running: 2, oldestDueAt: 1_000 },
    ];
    const metrics = createHostMetrics({
      queueStats: async (now) => {
        reads++;
        expect(now).toBe(4_500);
        return stats;
      },
      slowEndpoints: () => 3,
      now: () => 4_500,
    });
    const text = await scrapeText(metrics.registry, []);
    expect(reads).toBe(1);
    expect(line(text, 'platform_jobs{kind="deliver",state="due"}')).toBe(
      'platform_jobs{kind="deliver",state="due"} 5',
    );
    expect(line(text, 'platform_jobs{kind="invoke",state="queued"}')).toMatch(/ 0$/);
    expect(line(text, 'platform_jobs{kind="deliver",state="held"}')).toMatch(/ 40$/);
    expect(line(text, 'platform_jobs_oldest_due_age_seconds{kind="deliver"}')).toMatch(/ 3\.5$/);
    expect(line(text, 'platform_webhook_slow_endpoints')).toMatch(/ 3$/);
  });

  it("reports the SQLite log's syncs by way, with their time, from the source at each scrape", async () => {
    let inline = 3;
    const metrics = createHostMetrics({
      queueStats: async () => [],
      slowEndpoints: () => 0,
      logSyncs: () => [
        ['inline', { count: inline, seconds: 0.0015 }],
        ['pool', { count: 1, seconds: 0.004 }],
      ],
    });
    expect(line(await metrics.registry.metrics(), 'platform_sqlite_log_syncs_total{way="inline"}')).toMatch(
      / 3$/,
    );
    inline = 5;
    const text = await metrics.registry.metrics();
    expect(line(text, 'platform_sqlite_log_syncs_total{way="inline"}')).toMatch(/ 5$/);
    expect(line(text, 'platform_sqlite_log_syncs_total{way="pool"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_sqlite_log_sync_seconds_total{way="pool"}')).toMatch(/ 0\.004$/);
    // Without the source (PostgreSQL), no such series.
    const pg = createHostMetrics({ queueStats: async () => [], slowEndpoints: () => 0 });
    expect(await pg.registry.metrics()).not.toContain('platform_sqlite_log');
  });

  it('counts events by type and result, invocations by outcome', async () => {
    const metrics = createHostMetrics({ queueStats: async () => [], slowEndpoints: () => 0 });
    metrics.eventAccepted('site_view', false);
    metrics.eventAccepted('site_view', true);
    metrics.eventAccepted('site_view', false);
    metrics.invocation('ok', 12);
    metrics.invocation('timeout', 10_000);
    const text = await metrics.registry.metrics();
    expect(line(text, 'platform_events_total{type="site_view",result="accepted"}')).toMatch(/ 2$/);
    expect(line(text, 'platform_events_total{type="site_view",result="duplicate"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_invocations_total{outcome="timeout"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_invocation_duration_seconds_bucket{le="0.025"}')).toMatch(/ 1$/);
  });
});

describe('createDeliveryMetrics', () => {
  it('counts each attempt by what came of it, errors by code, and its duration', async () => {
    const metrics = createDeliveryMetrics();
    metrics.recordAttempt({ durationMs: 30 }, { state: 'succeeded' });
    metrics.recordAttempt({ durationMs: 10_000, error: { code: 'timeout' } }, { retryInMs: 1_000 });
    metrics.recordAttempt({ durationMs: 2, error: { code: 'target_blocked' } }, { state: 'failed' });
    const text = await scrapeText(
      createHostMetrics({ queueStats: async () => [], slowEndpoints: () => 0 }).registry,
      [await metrics.registry.metrics()],
    );
    expect(line(text, 'platform_webhook_attempts_total{outcome="succeeded"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_webhook_attempts_total{outcome="retry"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_webhook_attempts_total{outcome="exhausted"}')).toMatch(/ 0$/);
    expect(line(text, 'platform_webhook_attempt_errors_total{code="timeout"}')).toMatch(/ 1$/);
    expect(line(text, 'platform_webhook_attempt_duration_seconds_bucket{le="0.05"}')).toMatch(/ 2$/);
    // both registries' texts, each metric once
    expect(text.match(/^# TYPE platform_webhook_attempts_total /gm)).toHaveLength(1);
    expect(text.match(/^# TYPE platform_jobs /gm)).toHaveLength(1);
  });
});
