import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Manifest } from '@platform/manifest';
import type { Context, MiddlewareHandler } from 'hono';
import { SCOPES } from '../access/principal.js';
import { ACCESS, type AccessKey, type AccessRule, describeAccess, type Ownership } from '../access/rules.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { type HostContext, WEBHOOK_INTEGRATION } from '../services/context.js';
import { RESERVED_INTEGRATION_NAMES } from '../services/integrations.js';
import { createRouter, type HostEnv } from './app-types.js';

/** 403 for a principal kind a route does not admit. */
function refusedKind(kind: string, key: string): HttpError {
  if (kind === 'installation') return new HttpError(403, 'forbidden', 'This needs the operator token.');
  if (kind === 'portal') return new HttpError(403, 'forbidden', `A portal session cannot call ${key}.`);
  return new HttpError(
    403,
    'forbidden',
    `This needs the operator token: organization tokens cannot call ${key}.`,
  );
}

/** 403 for an organization token without the scope a route needs: which one, and how to get it. */
export function missingScope(scope: keyof typeof SCOPES): HttpError {
  return new HttpError(
    403,
    'missing_scope',
    `This organization token lacks the scope \`${scope}\` (${SCOPES[scope]}). Use a token that has it, e.g. one made with \`platform tokens create --scope ${scope}\`.`,
    { scope },
  );
}

/** Whether an organization owns (or, for `visible-integration`, may see) the resource of the path. */
async function owns(
  ctx: HostContext,
  ownership: Ownership,
  organizationId: string,
  param: (name: string) => string,
  query: (name: string) => string | undefined,
): Promise<HttpError | null> {
  switch (ownership) {
    case 'query-installation': {
      const id = query('installation');
      if (!id) return badRequest('An organization token must name its installation: ?installation=<id>.');
      const record = await ctx.storage.installations.get(id);
      return record?.ownerOrganization === organizationId ? null : notFound(`Installation "${id}"`);
    }
    case 'listed':
      return null;
    case 'organization':
      return param('organization') === organizationId
        ? null
        : notFound(`Organization "${param('organization')}"`);
    case 'installation': {
      const record = await ctx.storage.installations.get(param('id'));
      return record?.ownerOrganization === organizationId ? null : notFound(`Installation "${param('id')}"`);
    }
    case 'integration':
    case 'visible-integration': {
      const record = await ctx.storage.integrations.getLatest(param('name'));
      const manifest = record?.manifest as Manifest | undefined;
      // built-in integrations belong to the host, whatever their manifest names: no organization manages them
      const mine =
        manifest?.organization === organizationId && !RESERVED_INTEGRATION_NAMES.has(param('name'));
      const visible = ownership === 'visible-integration' && manifest?.visibility === 'public';
      return mine || visible ? null : notFound(`Integration "${param('name')}"`);
    }
    case 'portal-session': {
      const session = await ctx.storage.accessTokens.getSession(param('sessionId'));
      return session?.organizationId === organizationId
        ? null
        : notFound(`Portal session "${param('sessionId')}"`);
    }
  }
}

/**
 * Whether a portal session reaches the installation `id`: the one it was opened for, or, for a session
 * of an organization, any webhook installation that organization owns. Another answers 404.
 */
export async function portalReaches(
  ctx: HostContext,
  session: { installationId: string | null; organizationId: string | null },
  id: string,
): Promise<boolean> {
  if (session.installationId !== null) return session.installationId === id;
  if (session.organizationId === null) return false;
  const record = await ctx.storage.installations.get(id);
  return (
    record !== null &&
    record.ownerOrganization === session.organizationId &&
    record.integrationName === WEBHOOK_INTEGRATION
  );
}

/**
 * The middleware that enforces {@link ACCESS} for one route: the principal's kind, then an organization
 * token's scope, then what it must own (another organization's resource: 404). Runs before the route's
 * validators, so a caller without the right learns nothing of the request schema.
 *
 * @example
 * createRoute({ middleware: [authorize(ctx, 'GET /v1/audit')], method: 'get', path: '/v1/audit', ... });
 */
export function authorize(ctx: HostContext, key: AccessKey): MiddlewareHandler<HostEnv> {
  const rule: AccessRule = ACCESS[key];
  return async (c, next) => {
    const principal = c.get('principal');
    const param = (name: string) => c.req.param(name) ?? '';
    switch (principal.kind) {
      case 'operator':
        break;
      case 'installation':
        if (!rule.installation) throw refusedKind('installation', key);
        if (rule.installation === 'own' && principal.installationId !== param('id')) {
          throw new HttpError(
            403,
            'forbidden',
            'This token belongs to another installation; it can only access its own.',
          );
        }
        if (rule.installation === 'integration') {
          const own = await ctx.storage.installations.get(principal.installationId);
          if (own?.integrationName !== param('name')) {
            throw new HttpError(
              403,
              'forbidden',
              'This token belongs to an installation of another integration; it can only act for its own.',
            );
          }
        }
        break;
      case 'portal':
        if (!rule.portal) throw refusedKind('portal', key);
        if (rule.portal === 'own' && !(await portalReaches(ctx, principal, param('id')))) {
          throw notFound(`Installation "${param('id')}"`);
        }
        break;
      case 'organization': {
        const needs = rule.organization;
        if (!needs) throw refusedKind('organization', key);
        if (needs.scope && !principal.scopes.includes(needs.scope)) throw missingScope(needs.scope);
        const refused = await owns(ctx, needs.owns, principal.organizationId, param, (name) =>
          c.req.query(name),
        );
        if (refused) throw refused;
        break;
      }
    }
    await next();
  };
}

/**
 * A route definition with its authorization: the {@link authorize} middleware first, and the API
 * reference's "Who may call" line and `x-access` extension, all from {@link ACCESS}.
 *
 * @example
 * app.openapi(secured(ctx, { method: 'get', path: '/v1/audit', responses }), handler);
 */
export function secured<R extends Omit<RouteConfig, 'middleware'> & { middleware?: MiddlewareHandler[] }>(
  ctx: HostContext,
  route: R,
): R & { middleware: MiddlewareHandler[] } {
  const key = `${route.method.toUpperCase()} ${route.path}`;
  if (!Object.hasOwn(ACCESS, key)) {
    throw new Error(`No access rule for ${key}: add it to ACCESS in access/rules.ts.`);
  }
  const rule: AccessRule = ACCESS[key as AccessKey];
  const who = describeAccess(rule);
  return {
    ...route,
    middleware: [...(rule.public ? [] : [authorize(ctx, key as AccessKey)]), ...(route.middleware ?? [])],
    description: route.description ? `${route.description}\n\n${who}` : who,
    'x-access': rule,
  };
}

/**
 * A route middleware that runs `check` (which throws to refuse) before the validators, like `operatorOnly`:
 * a caller without access learns nothing from validation errors.
 *
 * @example
 * const reader = accessFirst((c) => requireReadAccess(ctx, c.get('principal'), c.req.param('spaceId') ?? ''));
 */
export function accessFirst(check: (c: Context<HostEnv>) => Promise<unknown>): MiddlewareHandler<HostEnv> {
  return async (c, next) => {
    await check(c);
    await next();
  };
}

/**
 * A router whose every `openapi` route is {@link secured}: defining a route without an access rule throws
 * at start, so no route can forget its authorization.
 *
 * @example
 * const app = createGuardedRouter(ctx);
 * app.openapi(createRoute({ method: 'get', path: '/v1/audit', responses }), handler);
 */
export function createGuardedRouter(ctx: HostContext): OpenAPIHono<HostEnv> {
  const app = createRouter();
  const define = app.openapi.bind(app);
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (define as (...args: unknown[]) => unknown)(secured(ctx, route as never), ...rest)) as typeof app.openapi;
  return app;
}
