// The typed client of the host's operator API, without a dependency on the host: the route table
// type comes from the host (`HostRoutes` of `@platform/host/api`, derived from the zod schemas its
// routes are defined with) as a type parameter, and this module only builds requests. The CLI and
// the dashboard both call the host through it (docs/architecture.md, "The host API's clients").

/** What one route takes and answers (the shape of each entry of `HostRoutes`). */
export interface RouteTypes {
  params: Record<string, string>;
  query: unknown;
  body: unknown;
  response: unknown;
}

/** The input of a call: `params` when the path has placeholders, `query` and `body` when the route takes them. */
export type CallInput<R extends RouteTypes> = (keyof R['params'] extends never
  ? { params?: undefined }
  : { params: R['params'] }) &
  ([R['query']] extends [never] ? { query?: undefined } : { query?: R['query'] }) &
  ([R['body']] extends [never] ? { body?: undefined } : { body: R['body'] });

/** A call without required input may omit its argument. */
type CallArgs<R extends RouteTypes> = keyof R['params'] extends never
  ? [R['body']] extends [never]
    ? [input?: CallInput<R>]
    : [input: CallInput<R>]
  : [input: CallInput<R>];

/**
 * Calls one route of the host API by its key (`'GET /v1/installations/{id}'`) and resolves with
 * its typed answer.
 */
export type HostCall<Routes extends { [K in keyof Routes]: RouteTypes }> = <K extends keyof Routes & string>(
  route: K,
  ...args: CallArgs<Routes[K]>
) => Promise<Routes[K]['response']>;

/** Sends one JSON request and resolves with the parsed answer (`undefined` for no body); throws on failure. */
export type SendRequest = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** A request built from a route key and its input. */
export interface RouteRequest {
  method: string;
  /** The path with its placeholders filled in (URL-encoded) and its query string. */
  path: string;
  body?: unknown;
}

/**
 * Builds the request of a route: the method and the path of its key, `{placeholders}` replaced by
 * the URL-encoded `params`, defined `query` values appended.
 *
 * @example
 * routeRequest('GET /v1/installations/{id}/deliveries', { params: { id: 'inst 1' }, query: { limit: 5 } });
 * // { method: 'GET', path: '/v1/installations/inst%201/deliveries?limit=5' }
 */
export function routeRequest(
  route: string,
  input: { params?: Record<string, string>; query?: unknown; body?: unknown } = {},
): RouteRequest {
  const space = route.indexOf(' ');
  if (space < 1) throw new TypeError(`"${route}" is not a route key like "GET /v1/status".`);
  const method = route.slice(0, space);
  const path = route.slice(space + 1).replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new TypeError(`${route}: the path parameter "${name}" is missing.`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  if (typeof input.query === 'object' && input.query !== null) {
    for (const [name, value] of Object.entries(input.query)) {
      if (value !== undefined && value !== null) search.set(name, String(value));
    }
  }
  const query = search.toString();
  return {
    method,
    path: query ? `${path}?${query}` : path,
    ...(input.body === undefined ? {} : { body: input.body }),
  };
}

/**
 * A typed client of the host API over any transport: `send` does the HTTP (authentication, errors),
 * this builds each request from the route key and types the answer with the route table.
 *
 * @example
 * ```ts
 * import type { HostRoutes } from '@platform/host/api';
 * const call = createHostApi<HostRoutes>((method, path, body) => api.request(method, path, body));
 * const delivery = await call('GET /v1/installations/{id}/deliveries/{deliveryId}', { params: { id, deliveryId } });
 * ```
 */
export function createHostApi<Routes extends { [K in keyof Routes]: RouteTypes }>(
  send: SendRequest,
): HostCall<Routes> {
  return (async (
    route: string,
    input?: { params?: Record<string, string>; query?: unknown; body?: unknown },
  ) => {
    const request = routeRequest(route, input);
    return send(request.method, request.path, request.body);
  }) as HostCall<Routes>;
}
