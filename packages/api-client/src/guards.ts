import { HOST_EVENT } from '@platform/events/catalogue';
import type { FetchEventRequest, UIRenderEvent } from './events';

/**
 * A plain JSON object (not null, not an array).
 * @example isRecord({ a: 1 }); // true
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the fields every event must have: a non-empty string `type` and a string
 * `eventId`. Returns a human-readable problem, or `undefined` when fine.
 * @example describeEventProblem({ type: 'x' }); // 'the event has no string "eventId"'
 */
export function describeEventProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the event is not a JSON object';
  if (typeof value.type !== 'string' || value.type === '') return 'the event has no string "type"';
  if (typeof value.eventId !== 'string') return 'the event has no string "eventId"';
  return undefined;
}

/**
 * Narrows `event.request` of a `fetch` event.
 * @example isFetchEventRequest({ method: 'GET', url: 'https://x/', headers: {} }); // true
 */
export function isFetchEventRequest(value: unknown): value is FetchEventRequest {
  if (!isRecord(value)) return false;
  if (typeof value.method !== 'string' || typeof value.url !== 'string') return false;
  if (!isRecord(value.headers)) return false;
  return Object.values(value.headers).every((v) => typeof v === 'string');
}

/**
 * Narrows the fields of a component render event the runtime relies on.
 * @example isUIRenderEvent({ type: HOST_EVENT.uiRender, eventId: 'e', componentId: 'c', props: {} }); // true
 */
export function isUIRenderEvent(value: unknown): value is UIRenderEvent {
  if (!isRecord(value) || value.type !== HOST_EVENT.uiRender || typeof value.componentId !== 'string')
    return false;
  if (value.props !== undefined && !isRecord(value.props)) return false;
  if (value.state !== undefined && value.state !== null && !isRecord(value.state)) return false;
  if (value.action !== undefined && value.action !== null) {
    if (!isRecord(value.action) || typeof value.action.action !== 'string') return false;
  }
  return true;
}

/**
 * Checks the parts of `environment` the runtime needs: `apiEndpoint` (string),
 * `apiTokens` (object) and `integration` (object). Returns the problem or `undefined`.
 * @example describeEnvironmentProblem({}); // 'the environment has no string "apiEndpoint"'
 */
export function describeEnvironmentProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the environment is not a JSON object';
  if (typeof value.apiEndpoint !== 'string') return 'the environment has no string "apiEndpoint"';
  if (!isRecord(value.apiTokens)) return 'the environment has no object "apiTokens"';
  if (!isRecord(value.integration)) return 'the environment has no object "integration"';
  if (value.secrets !== undefined && !isRecord(value.secrets)) return '"secrets" is not an object';
  return undefined;
}
