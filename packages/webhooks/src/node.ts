// node:http receiver. Uses only *types* from node, so the package build stays platform-neutral.
import type { IncomingMessage, ServerResponse } from 'node:http';
// The core comes from the package itself (not bundled twice), so error classes are shared with '@platform/webhooks'.
import {
  createWebhookProcessor,
  type WebhookHandlerOptions,
  type WebhookReply,
  WebhookRequestError,
} from '@platform/webhooks';
import { concatBytes, utf8 } from './bytes.js';

export type { WebhookHandlerOptions, WebhookMeta } from '@platform/webhooks';

/** A node request, possibly with a `body` a framework's body parser already set. */
export type NodeWebhookRequest = IncomingMessage & { body?: unknown };

const PARSED_HINT =
  'The request body was already parsed by a body parser (e.g. express.json()) before the webhook handler, ' +
  "so the signed raw bytes are gone. Mount the webhook route before express.json(), or use express.raw({ type: 'application/json' }) on it.";

function tooLarge(max: number): WebhookRequestError {
  return new WebhookRequestError('body_too_large', 413, `The request body is larger than ${max} bytes.`);
}

async function readNodeBody(req: NodeWebhookRequest, max: number): Promise<Uint8Array> {
  const preset = req.body;
  const presetBytes =
    preset instanceof Uint8Array ? preset : typeof preset === 'string' ? utf8(preset) : null;
  if (presetBytes) {
    // express.raw() (a Buffer) or express.text(): the raw body, already read.
    if (presetBytes.byteLength > max) throw tooLarge(max);
    return presetBytes;
  }
  if (req.readableEnded || (preset !== undefined && preset !== null && !req.readable)) {
    throw new WebhookRequestError('body_already_parsed', 500, PARSED_HINT);
  }
  const chunks = await readCappedBody(req, max, {
    tooLarge: () => tooLarge(max),
    unreadable: () =>
      new WebhookRequestError('body_read_failed', 400, 'The request body could not be read completely.'),
  });
  return concatBytes(chunks);
}

/**
 * The chunks of a Node request body, refusing more than `maxBytes` (declared in `Content-Length` or
 * actually sent) with `errors.tooLarge()`; the rest of an oversized body is drained unread so the
 * connection can still answer. A read error, or a connection closed before the end of the body,
 * rejects with `errors.unreadable(cause)`. The caller decodes the chunks (bytes, or UTF-8 text).
 * Used by this package's receivers and by the host's JSON body reader.
 *
 * @example
 * const chunks = await readCappedBody(req, 1024 * 1024, {
 *   tooLarge: () => new Error('too large'),
 *   unreadable: (cause) => new Error(`unreadable: ${cause.message}`),
 * });
 * const bytes = concatBytes(chunks);
 */
export function readCappedBody(
  req: IncomingMessage,
  maxBytes: number,
  errors: { tooLarge: () => Error; unreadable: (cause: Error) => Error },
): Promise<Uint8Array[]> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) {
    req.resume(); // let the rest drain so the connection can answer
    return Promise.reject(errors.tooLarge());
  }
  return new Promise<Uint8Array[]>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? utf8(chunk) : chunk;
      total += bytes.byteLength;
      if (total > maxBytes) {
        // Stop buffering but keep draining (without storing) so the 413 can still be written.
        cleanup();
        req.resume();
        reject(errors.tooLarge());
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(errors.unreadable(error));
    };
    // The client went away before the end of its body: nothing to answer, but do not wait forever.
    const onClose = (): void => onError(new Error('the connection closed before the end of the body'));
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function writeReply(res: ServerResponse, reply: WebhookReply): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.end(reply.body);
}

/**
 * Handles one request with the shared receiver; resolves when the answer is written. Never rejects:
 * an unexpected failure answers 500.
 */
export async function handleNodeWebhook(
  process: ReturnType<typeof createWebhookProcessor>,
  req: NodeWebhookRequest,
  res: ServerResponse,
): Promise<void> {
  let reply: WebhookReply;
  try {
    reply = await process({
      method: req.method ?? 'GET',
      header: (name) => headerValue(req, name),
      readBody: (max) => readNodeBody(req, max),
    });
  } catch (error) {
    console.error(
      '[@platform/webhooks] unexpected receiver error:',
      error instanceof Error ? error.message : error,
    );
    reply = {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        error: { code: 'internal_error', message: 'The webhook receiver failed unexpectedly.' },
      }),
    };
  }
  writeReply(res, reply);
}

/**
 * A node:http request listener receiving webhooks (same answers as `createWebhookHandler`: 405, 401
 * JSON, 200 received / duplicate, 500 when `onEvent` throws). Reads the raw body itself; if a
 * framework already set `req.body` to raw bytes or a string it uses that; an already-parsed JSON
 * object answers 500 `body_already_parsed` with instructions (a configuration error, so the platform
 * retries after you fix it).
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createNodeWebhookListener } from '@platform/webhooks/node';
 * createServer(createNodeWebhookListener({ secret: process.env.WEBHOOK_SECRET!, onEvent: console.log })).listen(3000);
 */
export function createNodeWebhookListener(
  options: WebhookHandlerOptions,
): (req: NodeWebhookRequest, res: ServerResponse) => void {
  const process = createWebhookProcessor(options);
  return (req, res) => {
    void handleNodeWebhook(process, req, res);
  };
}
