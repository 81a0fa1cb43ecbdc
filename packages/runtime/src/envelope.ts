import type { Event, IntegrationEnvironment } from '@platform/api-client';
import {
  describeEnvironmentProblem,
  describeEventProblem,
  HOST_EVENT,
  isFetchEventRequest,
  isRecord,
  isUIRenderEvent,
} from '@platform/api-client';
import { normalizeEnvironment } from './context';

/**
 * A request envelope that cannot be read; answered 400 `bad_envelope`.
 * @example throw new EnvelopeError('the envelope has no "event" part');
 */
export class EnvelopeError extends Error {
  override readonly name = 'EnvelopeError';
  readonly status = 400;
  readonly code = 'bad_envelope';
}

/** The parsed envelope. @example const { event, environment, body } = await parseEnvelope(bytes, type); */
export interface Envelope {
  event: Event;
  environment: IntegrationEnvironment;
  /** The `fetch-body` bytes, exactly as sent, when present. */
  body: ArrayBuffer | undefined;
}

async function jsonPart(form: FormData, name: string): Promise<unknown> {
  const part = form.get(name);
  if (part === null) throw new EnvelopeError(`The envelope has no "${name}" part`);
  const text = typeof part === 'string' ? part : await part.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new EnvelopeError(`The "${name}" part is not valid JSON`);
  }
}

/**
 * Reads the multipart envelope of `POST /v1` from the raw body bytes.
 * `fetch-body` may be a file part (byte-exact) or a text part (taken as UTF-8).
 *
 * @example
 * const envelope = await parseEnvelope(await request.arrayBuffer(), request.headers.get('content-type'));
 */
export async function parseEnvelope(raw: ArrayBuffer, contentType: string | null): Promise<Envelope> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new EnvelopeError(
      `The envelope must be multipart/form-data with a boundary (got ${contentType ? `"${contentType}"` : 'no Content-Type'})`,
    );
  }
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new EnvelopeError('The multipart body could not be parsed');
  }
  const event = await jsonPart(form, 'event');
  const eventProblem = describeEventProblem(event);
  if (eventProblem) throw new EnvelopeError(`Invalid "event" part: ${eventProblem}`);
  const environment = await jsonPart(form, 'environment');
  const envProblem = describeEnvironmentProblem(environment);
  if (envProblem) throw new EnvelopeError(`Invalid "environment" part: ${envProblem}`);
  const record = event as Record<string, unknown>;
  if (record.type === HOST_EVENT.fetch && !isFetchEventRequest(record.request)) {
    throw new EnvelopeError('Invalid "event" part: a fetch event needs request {method, url, headers}');
  }
  if (record.type === HOST_EVENT.uiRender && !isUIRenderEvent(record)) {
    throw new EnvelopeError(
      `Invalid "event" part: a ${HOST_EVENT.uiRender} event needs a string componentId, object props/state and action {action}`,
    );
  }
  if (record.type === HOST_EVENT.fetchPublishedScript && typeof record.siteId !== 'string') {
    throw new EnvelopeError(
      `Invalid "event" part: a ${HOST_EVENT.fetchPublishedScript} event needs a string siteId`,
    );
  }
  if (
    record.type === HOST_EVENT.fetchVisitorAuthentication &&
    (typeof record.siteId !== 'string' || typeof record.location !== 'string')
  ) {
    throw new EnvelopeError(
      `Invalid "event" part: a ${HOST_EVENT.fetchVisitorAuthentication} event needs a string siteId and location`,
    );
  }
  if (
    (record.type === HOST_EVENT.contentComputeRevision ||
      record.type === HOST_EVENT.contentComputeDocument) &&
    (typeof record.sourceId !== 'string' || typeof record.props !== 'object' || record.props === null)
  ) {
    throw new EnvelopeError(
      `Invalid "event" part: a ${String(record.type)} event needs a string sourceId and object props`,
    );
  }
  const part = form.get('fetch-body');
  const body =
    part === null
      ? undefined
      : typeof part === 'string'
        ? new TextEncoder().encode(part).buffer
        : await part.arrayBuffer();
  return {
    event: event as Event,
    environment: normalizeEnvironment(isRecord(environment) ? environment : {}),
    body,
  };
}
