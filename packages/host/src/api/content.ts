import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { HttpError } from '../errors.js';
import type { ExecutorSelector } from '../invocation/invoker.js';
import type { HostContext } from '../services/context.js';
import { createRouter } from './app-types.js';
import { errorAnswer } from './error-response.js';
import { portalPageRoutes } from './portal-page.js';
import { publicEndpointRoutes } from './public.js';
import { publishedScriptRoutes } from './published-scripts.js';
import { siteRoutes } from './sites.js';

/**
 * The app of the content origin (the second listener, `PLATFORM_CONTENT_PORT` / `PLATFORM_CONTENT_URL`):
 * the installations' public endpoints, the sites' published scripts, the sites themselves (`/sites/{siteId}/`,
 * guarded by visitor authentication: visitor-auth/) and the subscriber portal page (`/portal/`, which calls
 * the API's origin with its session token), nothing else — no API route, no dashboard, no token is ever
 * accepted here (a protected site's visitor session cookie is the one credential read).
 *
 * @example
 * const content = createContentApp(ctx, executors);
 * createServer(getRequestListener(content.fetch)).listen(8081, '127.0.0.1');
 */
export function createContentApp(ctx: HostContext, executors: ExecutorSelector) {
  const app = createRouter();
  app.route('/', publicEndpointRoutes(ctx, executors, 'content'));
  app.route('/', publishedScriptRoutes(ctx, executors));
  app.route('/', portalPageRoutes(ctx));
  app.route('/', siteRoutes(ctx, executors));
  app.notFound((c) =>
    c.json(
      new HttpError(
        404,
        'not_found',
        `This origin serves integrations' public endpoints, published site scripts, sites (/sites/{siteId}/) and the subscriber portal (/portal/) only; the API and the dashboard are at ${ctx.baseUrl()}.`,
      ).toJSON(),
      404,
    ),
  );
  app.onError((error, c) => {
    const { status, body } = errorAnswer(error, ctx.logger, { method: c.req.method, path: c.req.path });
    return c.json(body, status as 400);
  });
  return app;
}

/** The content origin's listener, once it listens. */
export interface ContentOrigin {
  /** Base URL public endpoints are advertised on (`PLATFORM_CONTENT_URL`, or this listener's). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the content origin's listener on `HOST:PLATFORM_CONTENT_PORT` with {@link createContentApp}.
 * Its advertised URL: `PLATFORM_CONTENT_URL`; else, when `PLATFORM_PUBLIC_URL` is set (a host behind a
 * proxy that does not route this port), the API's public URL (content then stays on the API's origin,
 * sandboxed, and a warning says how to separate it); else `http://HOST:<port>`.
 *
 * @example
 * const content = await serveContentOrigin(ctx, executors);
 * ctx.logger.info(`integration content on ${content.url}`);
 */
export async function serveContentOrigin(
  ctx: HostContext,
  executors: ExecutorSelector,
): Promise<ContentOrigin> {
  const { config } = ctx;
  const app = createContentApp(ctx, executors);
  const listener = getRequestListener(app.fetch, { hostname: config.hostname, overrideGlobalObjects: false });
  const server = createServer((req, res) => void listener(req, res));
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.hostname, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(config.contentPort);
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    if (!inUse || config.contentPortExplicit || config.contentUrl !== undefined) {
      throw inUse
        ? new Error(
            `The content origin cannot listen on ${config.hostname}:${config.contentPort} (PLATFORM_CONTENT_PORT): the port is in use. Free it or choose another port.`,
          )
        : error;
    }
    // The default port (PORT + 1) is taken and nothing names it: any free port will do.
    ctx.logger.warn({ port: config.contentPort }, 'content origin: default port in use, using a free one');
    await listen(0);
  }
  const { port } = server.address() as AddressInfo;
  const host = config.hostname.includes(':') ? `[${config.hostname}]` : config.hostname;
  let url = config.contentUrl ?? `http://${host}:${port}`;
  if (config.contentUrl === undefined && config.publicUrl !== undefined) {
    url = config.publicUrl;
    ctx.logger.warn(
      'PLATFORM_PUBLIC_URL is set but PLATFORM_CONTENT_URL is not: public endpoints are advertised on the API origin (sandboxed). Set PLATFORM_CONTENT_URL to an origin of its own that reaches PLATFORM_CONTENT_PORT (docs/security.md).',
    );
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeIdleConnections();
        server.close(() => resolve());
      }),
  };
}
