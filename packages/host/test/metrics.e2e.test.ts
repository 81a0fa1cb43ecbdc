import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_MODES } from './backends.js';
import {
  ADMIN_TOKEN,
  eventually,
  type Receiver,
  startReceiver,
  startTestHost,
  type TestHost,
} from './helpers.js';

const METRICS_TOKEN = 'pmt_metrics_scraper_token_0123456789';

/** The value of one sample of a Prometheus text, e.g. `platform_jobs{kind="deliver",state="queued"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(BACKEND_MODES)('GET /metrics (%s, %s)', (backend, _mode, thread) => {
  let t: TestHost;
  let ok: Receiver;
  let failing: Receiver;

  beforeAll(async () => {
    t = await startTestHost(
      {
        PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
        PLATFORM_DELIVERY_THREAD: thread,
        PLATFORM_METRICS_TOKEN: METRICS_TOKEN,
      },
      backend,
    );
    ok = await startReceiver();
    failing = await startReceiver((_req, res) => res.writeHead(404).end('no such hook'));
  });
  afterAll(async () => {
    await t.close();
    await ok.close();
    await failing.close();
  });

  const scrape = async (token = METRICS_TOKEN) => {
    const response = await fetch(`${t.host.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  };

  it('counts events, webhook attempts by outcome and the queue, for a scraper holding the metrics token', async () => {
    for (const [space, url] of [
      ['metrics-ok', ok.url],
      ['metrics-404', failing.url],
    ] as const) {
      const installed = await t.api('POST', '/v1/installations', {
        integration: 'webhook',
        space,
        configuration: { url, space_content_updated: true },
      });
      expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    }
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(before.text, 'platform_webhook_attempts_total{outcome="succeeded"}')).toBe(0);

    for (let i = 0; i < 3; i++) {
      const event = {
        type: 'space_content_updated',
        spaceId: 'metrics-ok',
        revisionId: `r${i}`,
        eventId: `evt_m_${thread}_${i}`,
      };
      expect((await t.api('POST', '/v1/events', event)).status).toBe(202);
    }
    // the same eventId again: a duplicate, nothing new delivered
    const again = {
      type: 'space_content_updated',
      spaceId: 'metrics-ok',
      revisionId: 'r0',
      eventId: `evt_m_${thread}_0`,
    };
    expect((await t.api('POST', '/v1/events', again)).status).toBe(202);
    const event404 = { type: 'space_content_updated', spaceId: 'metrics-404', revisionId: 'r9' };
    expect((await t.api('POST', '/v1/events', event404)).status).toBe(202);
    await ok.waitFor(3);
    await failing.waitFor(1);

    const after = await eventually(
      async () => {
        const { text } = await scrape();
        return (sample(text, 'platform_webhook_attempts_total{outcome="failed"}') ?? 0) >= 1 &&
          (sample(text, 'platform_webhook_attempts_total{outcome="succeeded"}') ?? 0) >= 3
          ? text
          : null;
      },
      10_000,
      'the attempts in /metrics',
    );
    expect(sample(after, 'platform_webhook_attempts_total{outcome="succeeded"}')).toBe(3);
    expect(sample(after, 'platform_webhook_attempts_total{outcome="failed"}')).toBe(1); // 404: not retried
    expect(sample(after, 'platform_webhook_attempts_total{outcome="retry"}')).toBe(0);
    expect(sample(after, 'platform_webhook_attempt_duration_seconds_count')).toBe(4);
    // late retries are counted by cause (none here: no retry); the series is there from the start
    expect(after).toContain('# TYPE platform_webhook_retries_late_total counter');
    expect(sample(after, 'platform_webhook_retry_lateness_seconds_count')).toBe(0);
    expect(sample(after, 'platform_events_total{type="space_content_updated",result="accepted"}')).toBe(4);
    expect(sample(after, 'platform_events_total{type="space_content_updated",result="duplicate"}')).toBe(1);
    // every delivery finished: nothing waits; the queue gauges say so
    expect(sample(after, 'platform_jobs{kind="deliver",state="queued"}')).toBe(0);
    expect(sample(after, 'platform_jobs{kind="deliver",state="running"}')).toBe(0);
    expect(sample(after, 'platform_jobs_oldest_due_age_seconds{kind="deliver"}')).toBe(0);
    expect(sample(after, 'platform_webhook_slow_endpoints')).toBe(0);
    // Node's own metrics, under their usual names
    expect(after).toMatch(/^process_cpu_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // SQLite: each accepted write waited for a sync of the log (inline or on the pool), counted with its
    // time; PostgreSQL syncs in its server, and the series are not there
    const syncs = (text: string) =>
      (sample(text, 'platform_sqlite_log_syncs_total{way="inline"}') ?? 0) +
      (sample(text, 'platform_sqlite_log_syncs_total{way="pool"}') ?? 0);
    if (backend === 'sqlite') {
      expect(syncs(after) - syncs(before.text)).toBeGreaterThanOrEqual(4); // the 4 new events at least
      const seconds =
        (sample(after, 'platform_sqlite_log_sync_seconds_total{way="inline"}') ?? 0) +
        (sample(after, 'platform_sqlite_log_sync_seconds_total{way="pool"}') ?? 0);
      expect(seconds).toBeGreaterThan(0);
    } else {
      expect(after).not.toContain('platform_sqlite_log_syncs_total');
    }
    // no installation or event id in any series
    expect(after).not.toMatch(/inst_|evt_/);
  });

  it('answers the operator token too, refuses no token or another, and the metrics token opens nothing else', async () => {
    expect((await scrape(ADMIN_TOKEN)).status).toBe(200);
    const none = await fetch(`${t.host.url}/metrics`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /PLATFORM_METRICS_TOKEN/,
    );
    expect((await scrape('pmt_wrong_token_000000000000000')).status).toBe(401);
    expect((await t.api('GET', '/v1/integrations', undefined, METRICS_TOKEN)).status).toBe(401);
  });

  it('GET /v1/status: the queues at rest and no slow endpoint, for the operator only', async () => {
    const status = await t.api<Record<string, unknown>>('GET', '/v1/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      version: expect.any(String),
      deliveries: { queued: 0, due: 0, held: 0, running: 0, oldestDueAgeSeconds: 0 },
      invocations: { queued: 0, due: 0, held: 0, running: 0, oldestDueAgeSeconds: 0 },
      slowEndpoints: [],
    });
    const installation = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'metrics-status',
      configuration: { url: ok.url, space_content_updated: true },
    });
    const token = t.host.context.tokens.issue(installation.body.id);
    expect((await t.api('GET', '/v1/status', undefined, token)).status).toBe(403);
    expect((await t.api('GET', '/v1/status', undefined, METRICS_TOKEN)).status).toBe(401);
  });
});
