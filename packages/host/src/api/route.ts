import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { json } from './responses.js';

/** The methods of the host's routes. */
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route key as the access rules and the client contract spell it: `'GET /v1/status'`. */
type RouteKey = `${Method} /${string}`;

/** The success answer of a route: its status, description and JSON body (none: a body-less answer, 204). */
type Ok = readonly [status: number, description: string, schema?: z.ZodType];

/** The request parts `createRoute` validates. */
type RequestParts = NonNullable<RouteConfig['request']>;

/** What {@link route} takes besides the key. */
interface RouteSpec {
  summary: string;
  description?: string;
  /** Runs before the validators (e.g. an `accessFirst` check). */
  middleware?: MiddlewareHandler[];
  /** The path parameters' schema. */
  params?: RequestParts['params'];
  /** The query's schema. */
  query?: RequestParts['query'];
  /** The JSON body's schema: a body is required. */
  body?: z.ZodType;
  /** The JSON body's schema: a body may be left out. */
  optionalBody?: z.ZodType;
  ok: Ok;
  /** The other answers: the file's error answers, and any the route adds (a 409). */
  errors: RouteConfig['responses'];
}

/** A JSON request body of `createRoute`. */
type JsonBody<Required extends boolean, T> = {
  required: Required;
  content: { 'application/json': { schema: T } };
};

/** The `request` of `createRoute` for a spec's `params`, `query`, `body` or `optionalBody`. */
type RequestOf<Spec> = {
  [K in keyof Spec & ('params' | 'query' | 'body' | 'optionalBody') as K extends 'optionalBody'
    ? 'body'
    : K]: K extends 'body'
    ? JsonBody<true, Spec[K]>
    : K extends 'optionalBody'
      ? JsonBody<false, Spec[K]>
      : Spec[K];
};

/** The `responses` entry of the success answer. */
type OkResponse<O extends Ok> = {
  [S in O[0]]: O[2] extends z.ZodType
    ? { description: string; content: { 'application/json': { schema: O[2] } } }
    : { description: string };
};

/** The route definition {@link route} builds, typed like `createRoute`'s so handlers keep their types. */
type Defined<K extends RouteKey, Spec extends RouteSpec> = K extends `${infer M extends Method} ${infer P}`
  ? {
      method: Lowercase<M>;
      path: P;
      summary: string;
      description?: string;
      middleware?: MiddlewareHandler[];
      responses: OkResponse<Spec['ok']> & Spec['errors'];
      getRoutingPath(): string;
    } & (keyof RequestOf<Spec> extends never ? unknown : { request: RequestOf<Spec> })
  : never;

/**
 * A route definition in the terms of its key (`'GET /v1/installations/{id}'`, as `ACCESS` and the client
 * contract name it): its summary, the schemas of the request parts it validates (`params`, `query`, a JSON
 * `body` or `optionalBody`), its success answer as `[status, description, schema]` (no schema: no body) and
 * its error answers. Builds the same `createRoute` definition written out by hand.
 *
 * @example
 * app.openapi(
 *   route('PATCH /v1/installations/{id}', {
 *     summary: 'Edit the configuration',
 *     params: IdParam,
 *     body: PatchInstallationBody,
 *     ok: [200, 'Installation', Installation],
 *     errors,
 *   }),
 *   async (c) => c.json(await configure(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
 * );
 */
export function route<const K extends RouteKey, const Spec extends RouteSpec>(
  key: K,
  spec: Spec,
): Defined<K, Spec> {
  const space = key.indexOf(' ');
  const [status, description, schema] = spec.ok;
  const { params, query, body, optionalBody } = spec;
  const request = {
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(body ? { body: { required: true, content: json(body) } } : {}),
    ...(optionalBody ? { body: { required: false, content: json(optionalBody) } } : {}),
  };
  return createRoute({
    ...(spec.middleware ? { middleware: spec.middleware } : {}),
    method: key.slice(0, space).toLowerCase() as RouteConfig['method'],
    path: key.slice(space + 1),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(Object.keys(request).length ? { request } : {}),
    responses: {
      [status]: schema ? { description, content: json(schema) } : { description },
      ...spec.errors,
    },
  }) as unknown as Defined<K, Spec>;
}

/** `T` without its empty values: what {@link given} keeps. */
type Given<T> = { [K in keyof T]?: Exclude<T[K], undefined | null | '' | 0 | false> };

/**
 * The options a request gave: `options` without its empty entries (undefined, null, `''`, `0`, `false`),
 * so that storage applies its defaults to what the caller left out.
 *
 * @example
 * await ctx.storage.invocationLogs.list(id, given({ limit: q.limit, since: q.since }));
 */
export function given<T extends object>(options: T): Given<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => Boolean(value))) as Given<T>;
}
