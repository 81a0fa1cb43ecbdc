import { createPublicEndpointHandler } from '@platform/runtime';

/**
 * `POST {publicEndpoint}/webhook`: a third party's signed webhook
 * (`X-Hello-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, key `secrets.WEBHOOK_SECRET`).
 * Acknowledged at once with `{"received": true}`; the payload is handled afterwards.
 *
 * @example fetch: (request, context) => webhook(request, context)
 */
export const webhook = createPublicEndpointHandler(
  async (request, context) => {
    const payload: unknown = await request.json();
    const installation = context.environment.installation?.id ?? 'unknown';
    console.log(`hello: webhook for ${installation}:`, payload);
  },
  {
    signature: (context) => ({
      secret: context.environment.secrets.WEBHOOK_SECRET ?? '',
      header: 'x-hello-signature',
      prefix: 'sha256=',
    }),
  },
);
