import { cors } from 'hono/cors';
import { createTokenResolver, isRefusal } from '../access/resolve.js';
import { bearerToken, tokenMatcher } from '../auth.js';
import { HttpError, unauthorized } from '../errors.js';
import type { ExecutorSelector } from '../invocation/invoker.js';
import { contentBase, type HostContext } from '../services/context.js';
import { createRouter } from './app-types.js';
import { ASSETS_PATH, assetRoutes } from './assets.js';
import { contentSourceRoutes } from './content-sources.js';
import { dashboardRoutes } from './dashboard.js';
import { documentRoutes } from './documents.js';
import { errorAnswer } from './error-response.js';
import { eventRoutes } from './events.js';
import { installationRoutes } from './installations.js';
import { integrationRoutes } from './integrations.js';
import { metricsRoutes } from './metrics.js';
import { nodeJsonBody } from './node-body.js';
import { operatorEventRoutes } from './operator-events.js';
import { organizationRoutes } from './organizations.js';
import { placeRoutes } from './places.js';
import { portalAndAuditRoutes } from './portal.js';
import { publicRoutes } from './public.js';
import {
  PUBLISHED_SCRIPT_PATH,
  publishedScriptListRoutes,
  publishedScriptRoutes,
} from './published-scripts.js';
import { statusRoutes } from './status.js';
import { taskRoutes } from './tasks.js';
import { webhookRoutes } from './webhooks.js';

/** Public endpoints: no bearer token, and the integration receives the raw body. */
const isPublicPath = (path: string) =>
  /^\/v1\/integrations\/[^/]+\/installations\/[^/]+\/public(\/|$)/.test(path);
/** Routes anyone may call: public endpoints, published site scripts and assets (icons and preview images). */
const needsNoToken = (path: string) =>
  isPublicPath(path) || PUBLISHED_SCRIPT_PATH.test(path) || path.startsWith(ASSETS_PATH);

/** What the API needs besides the host context. */
export interface ApiOptions {
  adminToken: string;
  executors: ExecutorSelector;
  /** Reports readiness for `GET /healthz`. */
  ready(): boolean;
  version: string;
  /** The delivery engine's metrics for `GET /metrics` ('' when it cannot answer). Default: none. */
  deliveryMetrics?(): Promise<string>;
}

/**
 * The host's HTTP API: a Hono app (`app.fetch(request)`), with its OpenAPI document at `/openapi.json`.
 *
 * @example
 * const app = createApi(ctx, { adminToken, executors, ready: () => true, version: '0.1.0' });
 * const response = await app.request('/healthz');
 */
export function createApi(ctx: HostContext, options: ApiOptions) {
  const app = createRouter();
  const isOperator = tokenMatcher(options.adminToken);
  const startedAt = new Date();

  app.route(
    '/',
    metricsRoutes(ctx, {
      isOperator,
      deliveryMetrics: options.deliveryMetrics ?? (async () => ''),
    }),
  );

  app.get('/healthz', (c) =>
    options.ready()
      ? c.json({ ok: true, version: options.version }, 200)
      : c.json({ ok: false, starting: true }, 503),
  );

  const resolver = createTokenResolver({
    storage: ctx.storage,
    isOperator,
    installationTokens: ctx.tokens,
    logger: ctx.logger,
    // PLATFORM_TOKEN_CACHE_MS: how long a read token or portal session is trusted before it is read again
    ttlMs: ctx.config.tokenCacheMs,
  });

  // The subscriber portal runs on the content origin and calls the API with its session token: CORS for
  // that origin alone, without credentials (a bearer token is never sent by the browser on its own).
  const portalOrigin = () => {
    const origin = new URL(contentBase(ctx)).origin;
    return origin === new URL(ctx.baseUrl()).origin ? null : origin;
  };
  app.use(
    '/v1/*',
    cors({
      origin: (origin) => (origin === portalOrigin() ? origin : null),
      allowHeaders: ['authorization', 'content-type'],
      allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
      maxAge: 600,
    }),
  );

  // Every /v1 route but the public endpoints and assets needs a bearer token.
  app.use('/v1/*', async (c, next) => {
    if (needsNoToken(c.req.path)) return next();
    const token = bearerToken(c.req.header('authorization'));
    if (token === null) throw unauthorized();
    const resolved = await resolver.resolve(token);
    if (isRefusal(resolved)) throw unauthorized(resolved.refused);
    c.set('principal', resolved);
    return next();
  });
  // After the token check (an unauthenticated body is never read); public endpoints get raw bytes.
  app.use('/v1/*', nodeJsonBody({ skip: isPublicPath }));

  app.route('/', organizationRoutes(ctx, { resolver, version: options.version }));
  app.route('/', portalAndAuditRoutes(ctx, { resolver }));
  app.route('/', integrationRoutes(ctx));
  app.route('/', installationRoutes(ctx));
  app.route('/', taskRoutes(ctx));
  app.route('/', webhookRoutes(ctx));
  app.route('/', operatorEventRoutes(ctx));
  app.route('/', eventRoutes(ctx));
  app.route('/', publicRoutes(ctx, options.executors));
  app.route('/', publishedScriptRoutes(ctx, options.executors));
  app.route('/', publishedScriptListRoutes(ctx));
  app.route('/', assetRoutes(ctx));
  app.route('/', documentRoutes(ctx));
  app.route('/', contentSourceRoutes(ctx, options.executors));
  app.route('/', placeRoutes(ctx));
  app.route('/', statusRoutes(ctx, { version: options.version, startedAt }));
  // The dashboard (GET pages and assets) after every API route, before the 404.
  app.route(
    '/',
    dashboardRoutes({
      // Webframes and images of public endpoints are on the content origin (docs/security.md).
      contentOrigin: () => {
        const origin = new URL(contentBase(ctx)).origin;
        return origin === new URL(ctx.baseUrl()).origin ? undefined : origin;
      },
    }),
  );

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Platform host API',
      version: options.version,
      description:
        'Integrations, installations, events and webhook deliveries. Errors: `{"error":{"code","message"}}`.',
    },
    security: [{ bearer: [] }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  app.notFound((c) =>
    c.json(new HttpError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}.`).toJSON(), 404),
  );

  app.onError((error, c) => {
    const { status, body, headers } = errorAnswer(error, ctx.logger, {
      method: c.req.method,
      path: c.req.path,
    });
    return c.json(body, status as 400, headers);
  });

  return app;
}
