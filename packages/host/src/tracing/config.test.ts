import { describe, expect, it } from 'vitest';
import { parseTracingEnv } from './config.js';

describe('parseTracingEnv', () => {
  it('is off without an OTLP endpoint, or when turned off', () => {
    expect(parseTracingEnv({})).toBeUndefined();
    expect(parseTracingEnv({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(parseTracingEnv({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(parseTracingEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('reads the endpoint, service, headers, resource, sampler and batch delay', () => {
    expect(
      parseTracingEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_SERVICE_NAME: 'hooks',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-tenant=t1',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }),
    ).toEqual({
      url: 'http://collector:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-tenant': 't1' },
      serviceName: 'hooks',
      resourceAttributes: { 'deployment.environment': 'prod' },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      scheduleDelayMs: 200,
      exportTimeoutMs: 10_000,
    });
  });

  it('takes the traces endpoint as is, before the base one, and defaults the rest', () => {
    expect(
      parseTracingEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/custom/path',
      }),
    ).toMatchObject({
      url: 'https://b/custom/path',
      serviceName: 'platform-host',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      scheduleDelayMs: 5000,
    });
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be/],
      [{ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL: .*http\/json/],
      [{ ...base, OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER must be one of/],
      [{ ...base, OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG/],
      [{ ...base, OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER/],
      [{ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }, /OTEL_EXPORTER_OTLP_HEADERS/],
      [{ ...base, OTEL_BSP_SCHEDULE_DELAY: '-1' }, /OTEL_BSP_SCHEDULE_DELAY/],
    ];
    for (const [env, message] of cases) expect(() => parseTracingEnv(env)).toThrow(message);
  });
});
