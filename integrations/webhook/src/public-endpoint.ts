import type { IntegrationContext } from '@platform/runtime';
import { publicEndpointOf } from '@platform/runtime';
import { installationOf, WEBHOOK_EVENT_TYPES_BY_PLACE } from './places';

const ALLOW = 'GET, HEAD';

/**
 * The installation's public endpoint. `GET` (and `HEAD`) at the endpoint itself answer
 * `{"integration":"webhook","place":"site","events":[...the site's webhook events]}`: the event
 * types available at this installation's place — never its URL, selection or secret, since the
 * endpoint is public. Other methods answer 405 in plain text with `Allow: GET, HEAD`; paths below
 * the endpoint answer 404 (the webhook integration receives nothing: the host delivers).
 *
 * @example
 * createIntegration({ fetch: handlePublicRequest });
 */
export function handlePublicRequest(request: Request, context: IntegrationContext): Response {
  const endpoint = publicEndpointOf(context.environment);
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  if (endpoint !== undefined && path !== new URL(endpoint).pathname.replace(/\/+$/, '')) {
    return Response.json(
      {
        error: {
          code: 'not_found',
          message: 'The webhook integration serves only its public endpoint itself',
        },
      },
      { status: 404 },
    );
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(`Method ${request.method} is not allowed; use GET.\n`, {
      status: 405,
      headers: { allow: ALLOW, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const { place } = installationOf(context.environment);
  const body = { integration: 'webhook', place, events: [...WEBHOOK_EVENT_TYPES_BY_PLACE[place]] };
  const response = Response.json(body, { headers: { 'cache-control': 'no-store' } });
  return request.method === 'HEAD' ? new Response(null, { headers: response.headers }) : response;
}
