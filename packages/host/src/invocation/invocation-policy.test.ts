import { describe, expect, it } from 'vitest';
import { classify } from '../delivery/policy.js';
import type { ExecutorErrorCode } from '../executor/index.js';
import { classifyInvocation, EXECUTOR_ERROR_CLASSIFICATION } from './invocation-policy.js';

const answered = (status: number) => classifyInvocation({ ok: true, response: { status } });
const failed = (code: ExecutorErrorCode) => classifyInvocation({ ok: false, error: { code } });

describe('classifyInvocation', () => {
  it('classifies executor errors by code: a bundle that cannot load is final, the rest retry', () => {
    expect(failed('load_failed')).toBe('failed');
    for (const code of ['timeout', 'restarted', 'unreachable', 'crashed', 'response_too_large'] as const) {
      expect(failed(code), code).toBe('retry');
    }
    expect(Object.keys(EXECUTOR_ERROR_CLASSIFICATION).sort()).toEqual(
      ['crashed', 'load_failed', 'response_too_large', 'restarted', 'timeout', 'unreachable'].sort(),
    );
  });

  it('retries 5xx and 429, succeeds on 2xx, and makes other answers final', () => {
    for (const status of [500, 502, 503, 504, 599, 429])
      expect(answered(status), String(status)).toBe('retry');
    for (const status of [200, 202, 204, 299]) expect(answered(status), String(status)).toBe('succeeded');
    for (const status of [100, 301, 304, 400, 401, 403, 404, 409, 422, 600])
      expect(answered(status), String(status)).toBe('failed');
  });

  it('keeps the classification invocations had when they borrowed the webhook policy', () => {
    // Before: an answer went through the webhook policy as is; an executor error became `load_failed`
    // (final) or `timeout` (retry).
    for (let status = 100; status < 700; status++)
      expect(answered(status)).toBe(classify({ statusCode: status }));
    for (const code of Object.keys(EXECUTOR_ERROR_CLASSIFICATION) as ExecutorErrorCode[]) {
      const before = classify({ error: { code: code === 'load_failed' ? 'load_failed' : 'timeout' } });
      expect(failed(code), code).toBe(before);
    }
  });
});
