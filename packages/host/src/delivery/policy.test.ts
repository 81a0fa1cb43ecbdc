import { describe, expect, it } from 'vitest';
import type { Classification } from '../jobs/policy.js';
import { type AttemptOutcome, classify } from './policy.js';

describe('classify', () => {
  const table: Array<[AttemptOutcome, Classification]> = [
    [{ statusCode: 200 }, 'succeeded'],
    [{ statusCode: 201 }, 'succeeded'],
    [{ statusCode: 204 }, 'succeeded'],
    [{ statusCode: 299 }, 'succeeded'],
    [{ statusCode: 429 }, 'retry'],
    [{ statusCode: 500 }, 'retry'],
    [{ statusCode: 502 }, 'retry'],
    [{ statusCode: 503 }, 'retry'],
    [{ statusCode: 599 }, 'retry'],
    [{ statusCode: 400 }, 'failed'],
    [{ statusCode: 401 }, 'failed'],
    [{ statusCode: 404 }, 'failed'],
    [{ statusCode: 410 }, 'failed'],
    [{ statusCode: 413 }, 'failed'],
    [{ statusCode: 301 }, 'failed'],
    [{ statusCode: 302 }, 'failed'],
    [{ statusCode: 307 }, 'failed'],
    [{ statusCode: 101 }, 'failed'],
    [{ acknowledged: true }, 'succeeded'],
    [{ error: { code: 'broker_unavailable' } }, 'retry'],
    [{ error: { code: 'broker_rejected' } }, 'failed'],
    [{ error: { code: 'timeout' } }, 'retry'],
    [{ error: { code: 'connection_refused' } }, 'retry'],
    [{ error: { code: 'connection_reset' } }, 'retry'],
    [{ error: { code: 'dns_error' } }, 'retry'],
    [{ error: { code: 'tls_error' } }, 'retry'],
    [{ error: { code: 'network_error' } }, 'retry'],
    [{ error: { code: 'target_blocked' } }, 'failed'],
    [{ error: { code: 'invalid_target' } }, 'failed'],
    [{ error: { code: 'target_unavailable' } }, 'failed'],
  ];
  it.each(table)('%j -> %s', (outcome, expected) => {
    expect(classify(outcome)).toBe(expected);
  });
});
