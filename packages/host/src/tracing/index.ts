/**
 * Traces of an event's path (docs/operations.md "Tracing"): the standard `OTEL_*` settings
 * ({@link parseTracingEnv}), one OTLP/HTTP exporting provider per thread ({@link startTracing}), and the
 * W3C `traceparent` that carries a trace across threads, the durable queue, receivers and integrations.
 */
export { parseTracingEnv, type SamplerSetting, type SettingError, type TracingConfig } from './config.js';
export { type HostTracing, type SpanParent, startTracing, traceLogFields, traceparentOf } from './tracer.js';
