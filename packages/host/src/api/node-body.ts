import { IncomingMessage } from 'node:http';
import { readCappedBody } from '@platform/webhooks/node';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors.js';
import type { HostEnv } from './app-types.js';

/** Largest JSON request body the API reads (an integration bundle is the largest legitimate one). */
export const MAX_JSON_BODY_BYTES = 32 * 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Whether a `Content-Type` is JSON (`application/json`, `application/<x>+json`, parameters allowed). */
export const isJsonType = (contentType: string | undefined): boolean => JSON_TYPE.test(contentType ?? '');

/**
 * Under `@hono/node-server`: reads a JSON request body straight from Node's `IncomingMessage` into
 * Hono's body cache, so `c.req.json()` and the route validators parse it without the adapter building a
 * WHATWG `Request` around a web stream (AbortController, ReadableStream, `Readable.toWeb`): that was ~10%
 * of the CPU of `POST /v1/events`. Anything else (other content types, `GET`, `skip(path)`, requests not
 * from node-server such as `app.request()`) passes through untouched. A body over `maxBytes` is a 413.
 *
 * @example
 * app.use('/v1/*', nodeJsonBody({ skip: (path) => path.includes('/public') }));
 */
export function nodeJsonBody(
  options: { maxBytes?: number; skip?: (path: string) => boolean } = {},
): MiddlewareHandler<HostEnv> {
  const maxBytes = options.maxBytes ?? MAX_JSON_BODY_BYTES;
  return async (c, next) => {
    const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
    if (!(incoming instanceof IncomingMessage) || incoming.readableEnded) return next();
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (!isJsonType(c.req.header('content-type')) || options.skip?.(c.req.path)) return next();
    const text = await readText(incoming, maxBytes);
    // Hono keeps promises in bodyCache (its type says plain values): `c.req.json()` = text, then parse.
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'body_too_large', `JSON request bodies are limited to ${maxBytes} bytes.`);
}

/**
 * The whole body of a Node request as UTF-8 text, refusing (413 `HttpError`) more than `maxBytes`
 * (declared or actual); a body that cannot be read is a 400.
 *
 * @example
 * const text = await readText(incoming, MAX_JSON_BODY_BYTES);
 */
export async function readText(incoming: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks = await readCappedBody(incoming, maxBytes, {
    tooLarge: () => tooLarge(maxBytes),
    unreadable: (error) =>
      new HttpError(400, 'invalid_request', `The request body could not be read: ${error.message}`),
  });
  const [only] = chunks;
  if (chunks.length === 1 && only)
    return Buffer.from(only.buffer, only.byteOffset, only.byteLength).toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}
