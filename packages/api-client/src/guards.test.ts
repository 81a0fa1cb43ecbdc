import { describe, expect, it } from 'vitest';
import {
  describeEnvironmentProblem,
  describeEventProblem,
  isFetchEventRequest,
  isRecord,
  isUIRenderEvent,
} from './guards';
import { isScope } from './scopes';

describe('guards', () => {
  it('isRecord rejects arrays and null', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
  });

  it('describeEventProblem names the missing field', () => {
    expect(describeEventProblem([])).toMatch(/not a JSON object/);
    expect(describeEventProblem({ eventId: 'e' })).toMatch(/"type"/);
    expect(describeEventProblem({ type: '', eventId: 'e' })).toMatch(/"type"/);
    expect(describeEventProblem({ type: 'x' })).toMatch(/"eventId"/);
    expect(describeEventProblem({ type: 'x', eventId: 'e' })).toBeUndefined();
  });

  it('isFetchEventRequest requires string headers', () => {
    expect(isFetchEventRequest({ method: 'GET', url: 'https://x/', headers: { a: 'b' } })).toBe(true);
    expect(isFetchEventRequest({ method: 'GET', url: 'https://x/', headers: { a: 1 } })).toBe(false);
    expect(isFetchEventRequest({ method: 'GET', headers: {} })).toBe(false);
  });

  it('isUIRenderEvent checks componentId, props, state and action', () => {
    const base = { type: 'ui_render', eventId: 'e', componentId: 'c', props: {} };
    expect(isUIRenderEvent(base)).toBe(true);
    expect(isUIRenderEvent({ ...base, action: { action: 'go' } })).toBe(true);
    expect(isUIRenderEvent({ ...base, action: { name: 'go' } })).toBe(false);
    expect(isUIRenderEvent({ ...base, state: 3 })).toBe(false);
    expect(isUIRenderEvent({ ...base, componentId: 1 })).toBe(false);
  });

  it('describeEnvironmentProblem checks the parts the runtime needs', () => {
    const env = { apiEndpoint: 'http://h', apiTokens: {}, integration: {} };
    expect(describeEnvironmentProblem(env)).toBeUndefined();
    expect(describeEnvironmentProblem({ ...env, apiEndpoint: 1 })).toMatch(/apiEndpoint/);
    expect(describeEnvironmentProblem({ ...env, secrets: 'x' })).toMatch(/secrets/);
  });

  it('isScope knows the documented scope values', () => {
    expect(isScope('site:views:read')).toBe(true);
    expect(isScope('site:views:write')).toBe(false);
  });
});
