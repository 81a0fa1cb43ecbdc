import { concatBytes } from './bytes.js';
import { createWebhookProcessor, type WebhookHandlerOptions, WebhookRequestError } from './receiver.js';

function tooLarge(max: number): WebhookRequestError {
  return new WebhookRequestError('body_too_large', 413, `The request body is larger than ${max} bytes.`);
}

/** Reads a Web stream fully, failing as soon as it exceeds `max` bytes. */
export async function readStreamLimited(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge(max);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof WebhookRequestError) throw error;
    throw new WebhookRequestError('body_read_failed', 400, 'The request body could not be read completely.');
  }
  return concatBytes(chunks);
}

/**
 * A fetch-style webhook receiver `(request: Request) => Promise<Response>` for Hono, Cloudflare
 * Workers, Bun, Deno and Node's fetch servers. Answers 405 (`Allow: POST`) to other methods, 401
 * JSON `{"error":{"code","message"}}` to a bad signature, 200 `{"received":true}` after `onEvent`
 * resolved, 200 `{"received":true,"duplicate":true}` for an `eventId` already processed (without
 * calling `onEvent`), and 500 when `onEvent` throws (the event is not marked seen, so the
 * platform's retry runs it again).
 *
 * @example
 * const handler = createWebhookHandler({
 *   secret: env.WEBHOOK_SECRET,
 *   onEvent: (event) => console.log(event.type, event.eventId),
 * });
 * export default { fetch: handler }; // Workers / Bun / Deno; with Hono: app.post('/hook', (c) => handler(c.req.raw))
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const process = createWebhookProcessor(options);
  return async (request) => {
    const reply = await process({
      method: request.method,
      header: (name) => request.headers.get(name),
      readBody: async (max) => {
        const declared = Number(request.headers.get('content-length') ?? Number.NaN);
        if (declared > max) throw tooLarge(max);
        if (request.bodyUsed) {
          throw new WebhookRequestError(
            'body_already_parsed',
            500,
            'The request body was already read before the webhook handler: pass the untouched Request (for Hono, c.req.raw before any c.req.json()).',
          );
        }
        return readStreamLimited(request.body, max);
      },
    });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}
