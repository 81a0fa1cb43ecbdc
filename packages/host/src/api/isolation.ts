/**
 * The Content-Security-Policy added to everything an integration answers: `sandbox` without
 * `allow-same-origin` gives the document an opaque origin, so its script can read no storage or cookie
 * of the origin that served it and set none (`document.cookie` throws), and its requests carry no
 * credentials of that origin. Scripts, forms and popups stay allowed (OAuth pages, small UIs).
 */
export const INTEGRATION_CONTENT_CSP = 'sandbox allow-scripts allow-forms allow-popups';

/** Headers an integration may never set through the host: they act on the serving origin itself. */
const DROPPED_EVERYWHERE = ['set-cookie', 'set-cookie2', 'clear-site-data', 'service-worker-allowed'];
/** Dropped on the API's origin only (CORS there would open host answers to other sites' script). */
const DROPPED_ON_API_ORIGIN = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-expose-headers',
];

/**
 * What the host answers for an integration's response: the same status and body, without the headers
 * that act on the serving origin (`Set-Cookie`, `Clear-Site-Data`, ...; CORS too on the API's origin),
 * with `policy` added (appended: a policy the integration set still applies too, and can only restrict
 * further) and `nosniff`. `policy` is the integration's (`contentPolicyOf`: the sandbox, the host's
 * sources and the manifest's); at least {@link INTEGRATION_CONTENT_CSP}. See docs/security.md
 * "Integration content".
 *
 * @example
 * return isolateIntegrationResponse(outcome.response, 'api', contentPolicyOf(ctx, integration));
 */
export function isolateIntegrationResponse(
  response: Response,
  origin: 'api' | 'content',
  policy: string = INTEGRATION_CONTENT_CSP,
): Response {
  const headers = new Headers(response.headers);
  for (const name of DROPPED_EVERYWHERE) headers.delete(name);
  if (origin === 'api') for (const name of DROPPED_ON_API_ORIGIN) headers.delete(name);
  headers.append('content-security-policy', policy);
  headers.set('x-content-type-options', 'nosniff');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
