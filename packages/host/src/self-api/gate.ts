import type { OutboundCaller, OutboundFetch } from '../executor/index.js';
import { decideSelfCall, integrationOfDeployment } from './policy.js';

/**
 * A call of integration code to the host's own API that the host refused (wrong path, no installation
 * token, a token of another integration). Its message names what to fix, never the token.
 *
 * @example
 * throw new SelfApiRefusedError('calls from integrations to the host API must carry the installation token');
 */
export class SelfApiRefusedError extends Error {
  override readonly name = 'SelfApiRefusedError';
  readonly code = 'self_api_refused' as const;
}

/** Options of {@link createSelfApiGate}. */
export interface SelfApiGateOptions {
  /** `environment.apiEndpoint`, the host API's base URL (read on each call: the port is known only after listen). */
  apiBase(): string;
  /** The host API's handler (the Hono app's `fetch`). */
  serve(request: Request): Response | Promise<Response>;
  /** The installation an installation token was issued for, or null when it is not genuine. */
  verifyToken(token: string): string | null;
  /** The integration an installation belongs to, or null when there is no such installation. */
  integrationOf(installationId: string): Promise<string | null>;
  /** Every other request: the address-policy gate. */
  network: OutboundFetch;
}

/**
 * Wraps the integrations' outbound gate so that calls to the host's own API (`apiEndpoint`) are served
 * by the host in-process: never through the network, so the address policy stays fully on for every
 * other target (a loopback host address included). Served only for `/v1/` paths and only with a genuine
 * installation token of an installation of the calling integration; the API's own access rules then
 * apply as for any caller.
 *
 * @example
 * const outbound = createSelfApiGate({
 *   apiBase: () => ctx.baseUrl(),
 *   serve: (request) => app.fetch(request),
 *   verifyToken: (token) => ctx.tokens.verify(token),
 *   integrationOf: async (id) => (await ctx.storage.installations.get(id))?.integrationName ?? null,
 *   network: createGuardedFetch(policy),
 * });
 */
export function createSelfApiGate(options: SelfApiGateOptions): OutboundFetch {
  return async (request: Request, caller?: OutboundCaller): Promise<Response> => {
    const url = new URL(request.url);
    const decision = decideSelfCall(url, options.apiBase(), request.headers.get('authorization'));
    if (decision.kind === 'network') return options.network(request, caller);
    if (decision.kind === 'refuse') throw new SelfApiRefusedError(decision.reason);
    const installationId = options.verifyToken(decision.token);
    if (installationId === null) {
      throw new SelfApiRefusedError(
        'the token is not an installation token of this host: use environment.apiTokens.installation',
      );
    }
    if (caller?.deploymentId !== undefined) {
      const expected = integrationOfDeployment(caller.deploymentId);
      const owner = await options.integrationOf(installationId);
      if (owner !== expected) {
        throw new SelfApiRefusedError(
          `the token is not one of ${expected}'s installations: an integration calls the host API with its own installation's token`,
        );
      }
    }
    if (`${url.pathname}${url.search}` === decision.path) return options.serve(request);
    // Under a base path (PLATFORM_PUBLIC_URL with a path): the router sees the path without it.
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return options.serve(
      new Request(new URL(decision.path, url.origin), {
        method: request.method,
        headers: request.headers,
        body,
      }),
    );
  };
}
