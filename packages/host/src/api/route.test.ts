import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { errorResponse, json } from './responses.js';
import { given, route } from './route.js';

const Params = z.object({ id: z.string() });
const Query = z.object({ limit: z.coerce.number().optional() });
const Body = z.object({ name: z.string() });
const Answer = z.object({ ok: z.boolean() });
const errors = { 404: errorResponse('Not found') };

/** A route definition as data: its routing path and every field but the function. */
const asData = (definition: { getRoutingPath(): string }) => ({
  ...definition,
  routingPath: definition.getRoutingPath(),
  getRoutingPath: undefined,
});

describe('route', () => {
  it('builds the definition createRoute is given written out: method, path, request parts, answers', () => {
    const middleware = [async (_c: unknown, next: () => Promise<void>) => next()];
    const built = route('PATCH /v1/things/{id}', {
      middleware,
      summary: 'Edit a thing',
      description: 'More words',
      params: Params,
      query: Query,
      body: Body,
      ok: [200, 'The thing', Answer],
      errors: { 409: errorResponse('Changed meanwhile'), ...errors },
    });
    const written = createRoute({
      middleware,
      method: 'patch',
      path: '/v1/things/{id}',
      summary: 'Edit a thing',
      description: 'More words',
      request: { params: Params, query: Query, body: { required: true, content: json(Body) } },
      responses: {
        200: { description: 'The thing', content: json(Answer) },
        409: errorResponse('Changed meanwhile'),
        ...errors,
      },
    });
    expect(asData(built)).toEqual(asData(written));
    expect(built.getRoutingPath()).toBe('/v1/things/:id');
  });

  it('leaves out what the spec does not give: no request, an optional body, an answer without a body', () => {
    expect(asData(route('DELETE /v1/things', { summary: 'Remove', ok: [204, 'Removed'], errors }))).toEqual(
      asData(
        createRoute({
          method: 'delete',
          path: '/v1/things',
          summary: 'Remove',
          responses: { 204: { description: 'Removed' }, ...errors },
        }),
      ),
    );
    const optional = route('POST /v1/things', {
      summary: 'Add',
      optionalBody: Body,
      ok: [202, 'Queued'],
      errors,
    });
    expect(optional.request.body).toEqual({ required: false, content: json(Body) });
    expect(Object.keys(optional)).not.toContain('middleware');
  });
});

describe('given', () => {
  it('keeps the values a request gave and drops the empty ones, as `...(v ? { k: v } : {})` did', () => {
    expect(
      given({ limit: 5, since: '2026-01-01', cursor: undefined, state: '', page: 0, raw: null }),
    ).toEqual({
      limit: 5,
      since: '2026-01-01',
    });
    expect(given({ states: [] as string[] })).toEqual({ states: [] });
  });
});
