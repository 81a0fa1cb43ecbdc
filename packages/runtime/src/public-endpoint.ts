import type { FetchHandler, IntegrationContext } from './context';
import { jsonError, methodNotAllowed } from './errors';
import { verifyWebhookSignature, type WebhookSignatureOptions } from './webhook-signature';

/**
 * Options of {@link createPublicEndpointHandler}.
 * @example const options: PublicEndpointOptions = { signature: (ctx) => ({ secret: ctx.environment.secrets.WEBHOOK_SECRET ?? '' }) };
 */
export interface PublicEndpointOptions {
  /**
   * Verify a third-party signature before acknowledging: invalid answers 401 JSON
   * and the handler does not run. A function receives the context (to read secrets).
   */
  signature?: WebhookSignatureOptions | ((context: IntegrationContext) => WebhookSignatureOptions);
}

/**
 * The public endpoint pattern (docs/contracts.md "Integration definition"): `POST` answers `{"received": true}` at
 * once and runs `handler` afterwards through `waitUntil` (its logs are not captured,
 * its errors are printed, never answered). Other methods: 405 plain text.
 * The handler receives a fresh `Request` with the same raw body bytes.
 *
 * @example
 * const webhook = createPublicEndpointHandler(
 *   async (request, context) => { const payload = await request.json(); console.log(payload); },
 *   { signature: (ctx) => ({ secret: ctx.environment.secrets.WEBHOOK_SECRET ?? '', header: 'x-hub-signature-256', prefix: 'sha256=' }) },
 * );
 */
export function createPublicEndpointHandler(
  handler: (request: Request, context: IntegrationContext) => unknown | Promise<unknown>,
  options: PublicEndpointOptions = {},
): FetchHandler {
  return async (request, context) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const body = await request.arrayBuffer();
    if (options.signature) {
      const signature =
        typeof options.signature === 'function' ? options.signature(context) : options.signature;
      const value = signature.signature ?? request.headers.get(signature.header ?? 'x-signature');
      const ok = await verifyWebhookSignature(body, { ...signature, signature: value }).catch(() => false);
      if (!ok) {
        return jsonError(401, 'invalid_signature', 'The webhook signature is missing or invalid');
      }
    }
    const copy = new Request(request.url, { method: 'POST', headers: request.headers, body });
    context.waitUntil(Promise.resolve().then(() => handler(copy, context)));
    return new Response(JSON.stringify({ received: true }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}
