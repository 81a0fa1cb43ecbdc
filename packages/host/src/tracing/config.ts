/** Makes the error of a bad setting (config.ts passes its `ConfigError`). */
export type SettingError = (message: string) => Error;

/** The sampler of `OTEL_TRACES_SAMPLER` (the standard names) and its `OTEL_TRACES_SAMPLER_ARG` ratio. */
export interface SamplerSetting {
  name:
    | 'always_on'
    | 'always_off'
    | 'traceidratio'
    | 'parentbased_always_on'
    | 'parentbased_always_off'
    | 'parentbased_traceidratio';
  /** For the ratio samplers: the share of traces kept, 0 to 1 (default 1). */
  ratio: number;
}

/**
 * Tracing as the standard `OTEL_*` variables set it (docs/operations.md "Tracing"). Plain data: it is
 * also handed to the delivery thread, which exports its own spans.
 */
export interface TracingConfig {
  /** Where spans are POSTed (OTLP/HTTP, JSON): `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string;
  /** `OTEL_EXPORTER_OTLP_TRACES_HEADERS` / `OTEL_EXPORTER_OTLP_HEADERS`: `key=value,key2=value2`. */
  headers: Record<string, string>;
  /** `OTEL_SERVICE_NAME`; default `platform-host`. */
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`: `key=value,...` added to the resource. */
  resourceAttributes: Record<string, string>;
  sampler: SamplerSetting;
  /** `OTEL_BSP_SCHEDULE_DELAY`: ms between two exports of the batch processor (default 5000). */
  scheduleDelayMs: number;
  /** `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` / `OTEL_EXPORTER_OTLP_TIMEOUT`: ms per export (default 10000). */
  exportTimeoutMs: number;
}

const SAMPLERS: readonly SamplerSetting['name'][] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** `key=value,key2=value2` (values URL-encoded, as the OpenTelemetry specification has it). */
function keyValues(raw: string | undefined, name: string, fail: SettingError): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw?.trim()) return out;
  for (const pair of raw.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw fail(`${name}: "${pair.trim()}" is not key=value.`);
    try {
      out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw fail(`${name}: "${pair.trim()}" is not URL-encoded.`);
    }
  }
  return out;
}

function millis(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
  fallback: number,
  fail: SettingError,
): number {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > 600_000) {
      throw fail(`${name} must be a whole number of ms from 1 to 600000; got "${raw}".`);
    }
    return value;
  }
  return fallback;
}

function endpointUrl(raw: string, name: string, fail: SettingError): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(`${name} must be an absolute http(s) URL; got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail(`${name} must be an http(s) URL; got "${raw}".`);
  }
  return url.href;
}

/**
 * Reads the standard OpenTelemetry variables. Tracing is on only when an OTLP endpoint is named
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`) and neither `OTEL_SDK_DISABLED=true`
 * nor `OTEL_TRACES_EXPORTER=none` turns it off; otherwise undefined: no spans, no `traceparent`.
 * Only OTLP/HTTP with JSON bodies is spoken: `OTEL_EXPORTER_OTLP_PROTOCOL` other than `http/json` is refused.
 *
 * @example
 * parseTracingEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.url; // 'http://collector:4318/v1/traces'
 * parseTracingEnv({}); // undefined: tracing off
 */
export function parseTracingEnv(
  env: NodeJS.ProcessEnv,
  fail: SettingError = (message) => new Error(message),
): TracingConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporters === 'none') return undefined;
  if (exporters && exporters !== 'otlp') {
    throw fail(`OTEL_TRACES_EXPORTER: only "otlp" or "none" is supported; got "${exporters}".`);
  }
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const baseEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  let url: string;
  if (tracesEndpoint) url = endpointUrl(tracesEndpoint, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', fail);
  else if (baseEndpoint)
    url = `${endpointUrl(baseEndpoint, 'OTEL_EXPORTER_OTLP_ENDPOINT', fail).replace(/\/+$/, '')}/v1/traces`;
  else return undefined;
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL'] as const) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== 'http/json') {
      throw fail(
        `${name}: the host exports traces as OTLP/HTTP with JSON bodies only ("http/json"); got "${protocol}".`,
      );
    }
  }
  const samplerName = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() ||
    'parentbased_always_on') as SamplerSetting['name'];
  if (!SAMPLERS.includes(samplerName)) {
    throw fail(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}; got "${samplerName}".`);
  }
  const rawRatio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = rawRatio ? Number(rawRatio) : 1;
  if (!(ratio >= 0 && ratio <= 1)) {
    throw fail(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got "${rawRatio}".`);
  }
  return {
    url,
    headers: {
      ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS', fail),
      ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', fail),
    },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'platform-host',
    resourceAttributes: keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES', fail),
    sampler: { name: samplerName, ratio },
    scheduleDelayMs: millis(env, ['OTEL_BSP_SCHEDULE_DELAY'], 5000, fail),
    exportTimeoutMs: millis(
      env,
      ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT'],
      10_000,
      fail,
    ),
  };
}
