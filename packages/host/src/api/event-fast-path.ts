import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken } from '../auth.js';
import type { HostContext } from '../services/context.js';
import { acceptEvent } from '../services/events.js';
import { traceLogFields } from '../tracing/index.js';
import { validationError } from './app-types.js';
import { errorAnswer, invalidJson } from './error-response.js';
import { endAcceptSpan, startAcceptSpan } from './event-trace.js';
import { acceptedBody } from './events.js';
import { isJsonType, MAX_JSON_BODY_BYTES, readText } from './node-body.js';
import { IncomingEvent } from './schemas.js';

/** A Node request handler that takes some requests before the Hono app: true when it took this one. */
export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const PATH = '/v1/events';

/**
 * `POST /v1/events` straight on Node's request and response, for the platform's event stream (the host's
 * hottest route): the same checks, validation, acceptance and answers as the Hono route in `events.ts`
 * (which still serves `app.request()`, other adapters and the OpenAPI document), without building a
 * WHATWG Request and Response per event (≈ 15 % of the main thread's CPU under load).
 *
 * It takes only requests the route would accept up to the body: `POST /v1/events` exactly, the operator's
 * bearer token, a JSON content type. Anything else (no or another token, another content type, a query
 * string) goes to the Hono app, so every refusal keeps its single source.
 *
 * @example
 * const fast = eventFastPath(ctx, tokenMatcher(adminToken));
 * createServer((req, res) => { if (!fast(req, res)) void honoListener(req, res); });
 */
export function eventFastPath(
  ctx: HostContext,
  isOperator: (token: string) => boolean,
  maxBytes = MAX_JSON_BODY_BYTES,
): NodeFastPath {
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== PATH) return false;
    const token = bearerToken(req.headers.authorization);
    if (token === null || !isOperator(token) || !isJsonType(req.headers['content-type'])) return false;
    void accept(ctx, req, maxBytes).then(({ status, body, headers }) => {
      const payload = JSON.stringify(body);
      res.writeHead(status, {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
    });
    return true;
  };
}

/** Reads, validates and accepts one event; never rejects (errors become their answer). */
async function accept(
  ctx: HostContext,
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
  const span = startAcceptSpan(ctx, req.headers.traceparent);
  try {
    const text = await readText(req, maxBytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalidJson();
    }
    const event = IncomingEvent.safeParse(json);
    if (!event.success) throw validationError('body', event.error.issues);
    const accepted = await acceptEvent(ctx, event.data, span);
    endAcceptSpan(span, 202, { ...accepted, type: event.data.type });
    return { status: 202, body: acceptedBody(accepted) };
  } catch (error) {
    // Tracing on: the error's log line (a 5xx) carries the span's ids.
    const logger = span ? ctx.logger.child(traceLogFields(span)) : ctx.logger;
    const answer = errorAnswer(error, logger, { method: 'POST', path: PATH });
    endAcceptSpan(span, answer.status);
    return answer;
  }
}
