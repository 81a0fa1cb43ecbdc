import type { OutboundFetch } from '../executor/index.js';
import type { HostContext } from '../services/context.js';
import { createSelfApiGate } from './gate.js';

/** The host API's handler, as the Hono app offers it. */
export type ApiHandler = (request: Request) => Response | Promise<Response>;

/**
 * The integrations' outbound gate of a host: calls to its own API served by `bind`'s handler, every
 * other request through `network` (the address policy). The handler is bound once the API exists
 * (the executor that needs the gate is made before it); until then a call answers 503.
 *
 * @example
 * const selfApi = selfApiOutbound(ctx, createGuardedFetch(policy));
 * const workerd = new WorkerdExecutor({ outbound: selfApi.outbound });
 * const app = createApi(ctx, options);
 * selfApi.bind(app.fetch);
 */
export function selfApiOutbound(
  ctx: HostContext,
  network: OutboundFetch,
): { outbound: OutboundFetch; bind(handler: ApiHandler): void } {
  let handler: ApiHandler | undefined;
  const outbound = createSelfApiGate({
    apiBase: () => ctx.baseUrl(),
    serve: (request) =>
      handler === undefined
        ? Response.json(
            { error: { code: 'starting', message: 'the host API is not started yet; retry' } },
            { status: 503 },
          )
        : handler(request),
    verifyToken: (token) => ctx.tokens.verify(token),
    integrationOf: async (id) => (await ctx.storage.installations.get(id))?.integrationName ?? null,
    network,
  });
  return {
    outbound,
    bind(next) {
      handler = next;
    },
  };
}
