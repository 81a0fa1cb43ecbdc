/**
 * Which outbound requests of integration code are calls to the host's own API, and whether one may be
 * served (docs/host-api-from-integrations.md). Pure: no I/O, no token verification.
 */

/** What the gate does with one outbound request. */
export type SelfCallDecision =
  /** Not the host API's origin: the address policy decides, as for any other target. */
  | { readonly kind: 'network' }
  /** A call to the host API carrying an installation token: served in-process once the token checks out. */
  | { readonly kind: 'host'; readonly token: string; readonly path: string }
  /** The host API's origin, but not a call it serves to integrations: refused with `reason`. */
  | { readonly kind: 'refuse'; readonly reason: string };

/** The path prefix of the host API routes integrations may call. */
export const SELF_API_PREFIX = '/v1/';

/** The prefix of installation tokens (`environment.apiTokens.installation`). */
const INSTALLATION_TOKEN_PREFIX = 'pit_';

/**
 * Decides what to do with an outbound request to `url`: a request under the host API's base URL
 * (`apiBase`, `environment.apiEndpoint`: same origin, under its path) is served by the host itself
 * when it is a `/v1/` call with an installation token, and refused otherwise; every other URL is left
 * to the network gate. `path` is what the host's own router sees (the base URL's path removed, as the
 * reverse proxy in front of a `PLATFORM_PUBLIC_URL` with a path does). The reason never contains the
 * token.
 *
 * @example
 * decideSelfCall(new URL('http://127.0.0.1:8080/v1/installations/i1'), 'http://127.0.0.1:8080', 'Bearer pit_i1.x');
 * // { kind: 'host', token: 'pit_i1.x', path: '/v1/installations/i1' }
 * decideSelfCall(new URL('http://127.0.0.1:9999/'), 'http://127.0.0.1:8080', null); // { kind: 'network' }
 */
export function decideSelfCall(url: URL, apiBase: string, authorization: string | null): SelfCallDecision {
  const base = new URL(apiBase);
  if (url.origin !== base.origin) return { kind: 'network' };
  const prefix = base.pathname.replace(/\/+$/, '');
  const local = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : null;
  if (local === null || !local.startsWith(SELF_API_PREFIX)) {
    return {
      kind: 'refuse',
      reason: `only the host API (${base.origin}${prefix}${SELF_API_PREFIX}...) is served to integrations, not ${url.pathname}`,
    };
  }
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  const token = match?.[1];
  if (token === undefined || !token.startsWith(INSTALLATION_TOKEN_PREFIX)) {
    return {
      kind: 'refuse',
      reason:
        'calls from integrations to the host API must carry the installation token: ' +
        'an `authorization: Bearer <token>` header with environment.apiTokens.installation (context.api sends it)',
    };
  }
  return { kind: 'host', token, path: `${local}${url.search}` };
}

/**
 * The integration name of a deployment id (`name@version#hash`, services/invoker.ts `deploymentOf`).
 *
 * @example
 * integrationOfDeployment('hello@1.0.0#3f2a9c'); // 'hello'
 */
export function integrationOfDeployment(deploymentId: string): string {
  const at = deploymentId.lastIndexOf('@');
  return at > 0 ? deploymentId.slice(0, at) : deploymentId;
}
