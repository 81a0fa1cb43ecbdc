import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/JSON attribute value (the parts of `AnyValue` the host sends). */
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

/** One span as the test reads it: ids in hex, attributes as plain values, and its resource's. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  events: Array<{ name: string; attributes: Record<string, string | number | boolean> }>;
  status: { code?: number; message?: string };
  resource: Record<string, string | number | boolean>;
}

/** A real OTLP/HTTP receiver on 127.0.0.1 (`POST /v1/traces`, JSON encoding). */
export interface OtlpSink {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  spans: ReceivedSpan[];
  /** Export requests received (any path). */
  requests: number;
  close(): Promise<void>;
}

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  return '';
}

function attributes(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        events?: Array<{ name: string; attributes?: KeyValue[] }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

/**
 * Starts the receiver: it decodes each `ExportTraceServiceRequest` (OTLP JSON: ids as hex strings) into
 * {@link ReceivedSpan}s and answers 200 `{}`; anything else (another path, a body that is not JSON) gets 400.
 *
 * @example
 * const sink = await startOtlpSink();
 * const host = await startTestHost({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
 */
export async function startOtlpSink(): Promise<OtlpSink> {
  const spans: ReceivedSpan[] = [];
  const sink = { spans, requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sink.requests++;
      let body: ExportRequest;
      try {
        if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`${req.method} ${req.url}`);
        if (!String(req.headers['content-type']).startsWith('application/json')) {
          throw new Error(`content-type ${req.headers['content-type']}`);
        }
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      } catch (error) {
        res.writeHead(400).end(String(error));
        return;
      }
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributes(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const span of ss.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes),
              events: (span.events ?? []).map((e) => ({
                name: e.name,
                attributes: attributes(e.attributes),
              })),
              status: span.status ?? {},
              resource,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    get requests() {
      return sink.requests;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
