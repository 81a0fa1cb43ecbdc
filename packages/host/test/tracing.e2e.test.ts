import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.js';
import {
  ADMIN_TOKEN,
  bundleIntegration,
  eventually,
  type Receiver,
  startReceiver,
  startTestHost,
  type TestHost,
} from './helpers.js';
import { type OtlpSink, type ReceivedSpan, startOtlpSink } from './otlp-sink.js';

/**
 * Tracing end to end (docs/operations.md "Tracing"): a host exporting to a real OTLP/HTTP receiver, a
 * webhook whose receiver fails once then succeeds, and an integration in workerd, both installed in one
 * space; one event posted with the caller's `traceparent`. And a host with no OTEL variables: nothing
 * exported, no `traceparent` anywhere, delivery unchanged.
 */

const MANIFEST = [
  'name: traced',
  'title: Traced',
  'description: test integration',
  'organization: test',
  'visibility: private',
  'target: all',
  'scopes: [space:content:read]',
  '',
].join('\n');

/** The caller's trace: the accept span continues it. */
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

interface Invocation {
  eventType: string;
  status: number | 'error';
  lines: Array<{ message: string }>;
}

/** A host's log lines, as JSON objects. */
function collectingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

/** Fails the first request with 500, answers 200 after. */
function failOnce(): Parameters<typeof startReceiver>[0] {
  let seen = 0;
  return (_request, res) => {
    seen++;
    res.writeHead(seen === 1 ? 500 : 200).end(seen === 1 ? 'not yet' : '{"ok":true}');
  };
}

describe.each(BACKENDS)('%s', (backend) => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundleIntegration('packages/host/test/fixtures/traced', 'src/index.ts');
  });

  /** Publishes the fixture and installs it and a webhook to `url` in `space`. */
  async function setUp(
    t: TestHost,
    space: string,
    url: string,
  ): Promise<{ integration: string; webhook: string }> {
    const published = await t.api('POST', '/v1/integrations', { manifest: MANIFEST, bundle });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const integration = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'traced',
      space,
      configuration: {},
    });
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    const webhook = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url, space_content_updated: true },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    return { integration: integration.body.id, webhook: webhook.body.id };
  }

  async function postEvent(t: TestHost, space: string, traceparent?: string): Promise<string> {
    const response = await fetch(`${t.host.url}/v1/events`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        ...(traceparent ? { traceparent } : {}),
      },
      body: JSON.stringify({ type: 'space_content_updated', spaceId: space, revisionId: 'rev-1' }),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { eventId: string }).eventId;
  }

  /** The traceparent line the fixture logged for `eventId` (waits for its invocation). */
  async function loggedTraceparent(t: TestHost, installation: string, eventId: string): Promise<string> {
    const line = await eventually(
      async () => {
        const res = await t.api<{ invocations: Invocation[] }>(
          'GET',
          `/v1/installations/${installation}/logs`,
        );
        const lines = res.body.invocations.flatMap((i) => i.lines.map((l) => l.message));
        return lines.find((l) => l.startsWith(`event ${eventId} traceparent=`));
      },
      30_000,
      'the integration logged its traceparent',
    );
    return line.slice(line.indexOf('traceparent=') + 'traceparent='.length);
  }

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    let sink: OtlpSink;
    let receiver: Receiver;
    let t: TestHost;
    const logs = collectingLogger();

    beforeAll(async () => {
      sink = await startOtlpSink();
      receiver = await startReceiver(failOnce());
      t = await startTestHost(
        {
          PLATFORM_ALLOW_PRIVATE_TARGETS: '1',
          PLATFORM_INVOCATION_TIMEOUT_MS: '5000',
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_SERVICE_NAME: 'platform-host-test',
          OTEL_BSP_SCHEDULE_DELAY: '50',
        },
        backend,
        logs.logger,
      );
    });
    afterAll(async () => {
      await t?.close();
      await Promise.all([receiver?.close(), sink?.close()]);
    });

    it('exports accept, fan-out, each attempt and the invocation in one trace, and propagates traceparent', async () => {
      const space = 'space-traced';
      const { integration, webhook } = await setUp(t, space, receiver.url);
      const eventId = await postEvent(t, space, `00-${CALLER_TRACE}-${CALLER_SPAN}-01`);

      // The receiver: two attempts, each with a traceparent of the caller's trace and a span of its own.
      const requests = await receiver.waitFor(2, 20_000);
      const sent = requests.map((r) => TRACEPARENT.exec(String(r.headers.traceparent)));
      expect(sent.map((m) => m?.[1])).toEqual([CALLER_TRACE, CALLER_TRACE]);
      const attemptSpanIds = sent.map((m) => m?.[2] ?? '');
      expect(new Set(attemptSpanIds).size).toBe(2);

      const spansOf = (name: string) =>
        sink.spans.filter((s) => s.name === name && s.traceId === CALLER_TRACE);
      const spans = await eventually(
        async () => {
          const attempts = spansOf('webhook attempt');
          const invocations = spansOf('invoke integration');
          return attempts.length >= 2 && invocations.length >= 1 ? { attempts, invocations } : null;
        },
        20_000,
        'the attempt and invocation spans',
      );
      const [accept] = spansOf('POST /v1/events');
      const [fanOut] = spansOf('fan-out');
      expect(accept).toBeDefined();
      expect(fanOut).toBeDefined();
      // The accept span continues the caller's trace; fan-out is its child; attempts and the invocation the fan-out's.
      expect(accept).toMatchObject({
        parentSpanId: CALLER_SPAN,
        kind: 2, // SERVER
        attributes: {
          'http.request.method': 'POST',
          'http.route': '/v1/events',
          'http.response.status_code': 202,
          'platform.event.id': eventId,
          'platform.jobs.count': 2,
        },
        resource: { 'service.name': 'platform-host-test', 'thread.name': 'main' },
      });
      expect(fanOut?.parentSpanId).toBe(accept?.spanId);
      expect(fanOut?.attributes['platform.jobs.count']).toBe(2);
      const jobs = (fanOut?.events ?? []).filter((e) => e.name === 'job').map((e) => e.attributes);
      expect(jobs.map((j) => j['platform.installation.id']).sort()).toEqual([integration, webhook].sort());

      const attempts = [...spans.attempts].sort(
        (a, b) =>
          Number(a.attributes['platform.delivery.attempt']) -
          Number(b.attributes['platform.delivery.attempt']),
      );
      expect(attempts.map((s) => s.spanId)).toEqual(attemptSpanIds);
      for (const span of attempts) {
        expect(span.parentSpanId).toBe(fanOut?.spanId);
        expect(span.kind).toBe(3); // CLIENT
        // Exported by the delivery thread's own provider.
        expect(span.resource['thread.name']).toBe('delivery');
      }
      expect(attempts.map((s) => s.attributes)).toMatchObject([
        {
          'http.response.status_code': 500,
          'platform.delivery.attempt': 1,
          'platform.delivery.outcome': 'retry',
        },
        {
          'http.response.status_code': 200,
          'platform.delivery.attempt': 2,
          'platform.delivery.outcome': 'succeeded',
        },
      ]);
      expect(attempts[0]?.status.code).toBe(2); // ERROR

      // The invocation: a span under the fan-out, and the envelope's traceparent is that span's.
      const invocation = spans.invocations[0] as ReceivedSpan;
      expect(invocation).toMatchObject({
        parentSpanId: fanOut?.spanId,
        attributes: {
          'platform.integration.name': 'traced',
          'platform.installation.id': integration,
          'http.response.status_code': 200,
        },
      });
      expect(await loggedTraceparent(t, integration, eventId)).toBe(
        `00-${CALLER_TRACE}-${invocation.spanId}-01`,
      );

      // Log lines carry the trace: the failed attempt's warn line (relayed from the delivery thread), and
      // the integration's own line in the host log.
      const failed = logs.lines.find(
        (l) => l.delivery !== undefined && l.attempt === 1 && l.outcome === 'HTTP 500',
      );
      expect(failed).toMatchObject({ trace_id: CALLER_TRACE, span_id: attemptSpanIds[0] });
      const fromIntegration = logs.lines.find(
        (l) => l.source === 'integration' && String(l.msg).includes(`event ${eventId} traceparent=`),
      );
      expect(fromIntegration).toMatchObject({ trace_id: CALLER_TRACE, span_id: invocation.spanId });
    });

    it('starts a new trace for an event posted without traceparent', async () => {
      const r = await startReceiver();
      try {
        const space = 'space-new-trace';
        const res = await t.api<{ id: string }>('POST', '/v1/installations', {
          integration: 'webhook',
          space,
          configuration: { url: r.url, space_content_updated: true },
        });
        expect(res.status).toBe(201);
        const eventId = await postEvent(t, space);
        const [request] = await r.waitFor(1);
        const [, traceId] = TRACEPARENT.exec(String(request?.headers.traceparent)) ?? [];
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(traceId).not.toBe(CALLER_TRACE);
        const accept = await eventually(
          async () =>
            sink.spans.find(
              (s) => s.name === 'POST /v1/events' && s.attributes['platform.event.id'] === eventId,
            ),
          10_000,
          'the accept span',
        );
        expect(accept.traceId).toBe(traceId);
        expect(accept.parentSpanId).toBeUndefined();
      } finally {
        await r.close();
      }
    });
  });

  describe('with no OTEL variables', () => {
    it('exports nothing, sends no traceparent, and delivers as before', async () => {
      const sink = await startOtlpSink();
      const receiver = await startReceiver(failOnce());
      const t = await startTestHost(
        { PLATFORM_ALLOW_PRIVATE_TARGETS: '1', PLATFORM_INVOCATION_TIMEOUT_MS: '5000' },
        backend,
      );
      try {
        expect(t.host.context.tracing).toBeUndefined();
        const space = 'space-untraced';
        const { integration, webhook } = await setUp(t, space, receiver.url);
        const eventId = await postEvent(t, space, `00-${CALLER_TRACE}-${CALLER_SPAN}-01`);
        const requests = await receiver.waitFor(2, 20_000);
        expect(requests.map((r) => r.headers.traceparent)).toEqual([undefined, undefined]);
        const delivered = await eventually(
          async () => {
            const res = await t.api<{ deliveries: Array<{ state: string; attempts: unknown[] }> }>(
              'GET',
              `/v1/installations/${webhook}/deliveries`,
            );
            const [d] = res.body.deliveries;
            return d?.state === 'succeeded' ? d : null;
          },
          10_000,
          'the delivery succeeded',
        );
        expect(delivered.attempts).toHaveLength(2);
        expect(await loggedTraceparent(t, integration, eventId)).toBe('none');
      } finally {
        await t.close(); // a tracing host would export what it buffered here
        await receiver.close();
      }
      expect(sink.requests).toBe(0);
      await sink.close();
    });
  });
});
