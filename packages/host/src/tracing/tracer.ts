import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  type SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SamplerSetting, TracingConfig } from './config.js';

/** Where a span starts: under a span of this thread, under a W3C `traceparent` (another thread, a stored job, a caller), or a new trace. */
export type SpanParent = Span | string | undefined;

/** The tracing of one thread (each thread has its own provider and exporter). */
export interface HostTracing {
  /**
   * Starts a span under `parent` (a malformed `traceparent` starts a new trace).
   *
   * @example
   * const span = tracing.start('webhook attempt', { kind: SpanKind.CLIENT, parent: job.traceparent });
   */
  start(name: string, options: { kind: SpanKind; parent?: SpanParent; attributes?: Attributes }): Span;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
  /** Exports what is buffered, then stops (at the host's or the thread's stop). */
  shutdown(): Promise<void>;
}

function samplerOf(setting: SamplerSetting): Sampler {
  switch (setting.name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(setting.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setting.ratio) });
  }
}

/** The context a span starts in: its parent's. */
function parentContext(parent: SpanParent): Context {
  if (parent === undefined) return ROOT_CONTEXT;
  if (typeof parent !== 'string') return trace.setSpan(ROOT_CONTEXT, parent);
  const remote = parseTraceParent(parent);
  return remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : ROOT_CONTEXT;
}

/**
 * A tracer provider exporting over OTLP/HTTP (JSON) in batches, for one thread. No global provider or
 * context manager is registered: spans are parented explicitly (a span, or a `traceparent` carried with
 * the job), so several hosts in one process (the tests) keep their own tracing, and no async context
 * tracking costs anything.
 *
 * @example
 * const tracing = startTracing(config.tracing, { thread: 'main', version: '0.1.0' });
 * const span = tracing.start('POST /v1/events', { kind: SpanKind.SERVER });
 * span.end();
 * await tracing.shutdown();
 */
export function startTracing(
  config: TracingConfig,
  where: { thread: 'main' | 'delivery'; version: string },
): HostTracing {
  const exporter = new OTLPTraceExporter({
    url: config.url,
    headers: config.headers,
    timeoutMillis: config.exportTimeoutMs,
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      ...config.resourceAttributes,
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: where.version,
      'thread.name': where.thread,
    }),
    sampler: samplerOf(config.sampler),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: config.scheduleDelayMs,
        exportTimeoutMillis: config.exportTimeoutMs,
      }),
    ],
  });
  const tracer: Tracer = provider.getTracer('@platform/host', where.version);
  return {
    start: (name, options) =>
      tracer.startSpan(
        name,
        { kind: options.kind, ...(options.attributes ? { attributes: options.attributes } : {}) },
        parentContext(options.parent),
      ),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * The W3C `traceparent` of a span: what is stored with a job and sent to receivers and integrations.
 *
 * @example
 * traceparentOf(span); // '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
 */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The fields a log line carries for a span (`trace_id`, `span_id`), so a line can be found from its trace.
 *
 * @example
 * logger.warn({ delivery: id, ...traceLogFields(span) }, 'attempt 1 failed');
 */
export function traceLogFields(span: Span | undefined): { trace_id?: string; span_id?: string } {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
