import type { Context } from 'hono';
import type { ExecutorSelector } from '../invocation/invoker.js';
import { siteSigningSecret, siteUrl, visitorSessionKey } from '../invocation/site-fields.js';
import { contentBase, type HostContext } from '../services/context.js';
import {
  askVisitorAuthentication,
  openSession,
  problemPage,
  SITE_PAGE_CSP,
  sealSession,
  sessionCookie,
  sessionCookieOf,
  sessionFromToken,
  siteLocation,
  sitePage,
  verifyVisitorToken,
  visitorAuthTarget,
} from '../visitor-auth/index.js';
import { createRouter, type HostEnv } from './app-types.js';

const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
const PAGE_HEADERS = {
  ...NO_STORE,
  'content-security-policy': SITE_PAGE_CSP,
  'referrer-policy': 'no-referrer',
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The sites the host serves on the content origin (docs/visitor-authentication.md): `GET /sites/{siteId}/…`.
 * A site with a `site:visitor:auth` installation is protected: a visitor without a session is sent to
 * the sign-in page the integration names (`fetch_visitor_authentication`), comes back with `jwt_token`,
 * which the host verifies with the installation's signing secret before it sets the session cookie and
 * shows the page. `/sites/{siteId}/~visitor` answers the session's claims (JSON), `…/~visitor/logout`
 * ends it.
 *
 * @example
 * app.route('/', siteRoutes(ctx, executors));
 */
export function siteRoutes(ctx: HostContext, executors: ExecutorSelector) {
  const app = createRouter();
  const sessionKey = visitorSessionKey(ctx);
  const secure = () => contentBase(ctx).startsWith('https:');

  const handle = async (c: Context<HostEnv>) => {
    const siteId = c.req.param('siteId') ?? '';
    const url = new URL(c.req.url);
    const base = `/sites/${encodeURIComponent(siteId)}`;
    const location = siteLocation(url, siteId);
    const target = await visitorAuthTarget(ctx, siteId);
    const now = nowSeconds();
    if (location === '/~visitor/logout' || location.startsWith('/~visitor/logout?')) {
      const clear = sessionCookie(base, undefined, 0, secure());
      const next = target ? await askVisitorAuthentication(ctx, executors, target, '/', 'logout') : undefined;
      if (next) return c.body(null, 302, { ...NO_STORE, location: next, 'set-cookie': clear });
      // Not straight back to the site: a provider that still has the visitor's session would sign them
      // in again at once.
      return c.html(
        problemPage('Logged out', 'You are logged out of this site.', `${base}/`, 'Sign in again'),
        200,
        {
          ...PAGE_HEADERS,
          'set-cookie': clear,
        },
      );
    }
    if (!target) {
      if (location === '/~visitor') return c.json({ authenticated: false, claims: null }, 200, NO_STORE);
      return c.html(sitePage(siteId, location, undefined, base), 200, PAGE_HEADERS);
    }
    const { installation } = target;
    if (installation.status !== 'active') {
      return c.html(
        problemPage(
          'Sign-in unavailable',
          `This site's sign-in (installation ${installation.id} of ${installation.integrationName}) is ${installation.status}; the site stays closed until it is active. Its owner completes or resumes the installation.`,
          `${base}/`,
        ),
        503,
        PAGE_HEADERS,
      );
    }
    const token = url.searchParams.get('jwt_token');
    if (token !== null) {
      const verified = verifyVisitorToken(token, siteSigningSecret(ctx, installation.id), now);
      const session = verified.ok
        ? sessionFromToken(siteId, installation.id, verified.claims, now)
        : verified;
      if (!('claims' in session)) {
        ctx.logger.warn(
          { site: siteId, installation: installation.id },
          `visitor authentication: token refused (${session.reason})`,
        );
        return c.html(
          problemPage(
            'Sign-in refused',
            `The sign-in could not be accepted: ${session.reason}.`,
            `${base}${location}`,
          ),
          401,
          PAGE_HEADERS,
        );
      }
      return c.body(null, 303, {
        ...NO_STORE,
        location: `${siteUrl(ctx, siteId)}${location}`,
        'set-cookie': sessionCookie(
          base,
          sealSession(session, sessionKey),
          session.expiresAt - now,
          secure(),
        ),
      });
    }
    const session = openSession(
      sessionCookieOf(c.req.header('cookie')),
      sessionKey,
      { siteId, installationId: installation.id },
      now,
    );
    if (location === '/~visitor') {
      return c.json(
        session
          ? {
              authenticated: true,
              claims: session.claims,
              expiresAt: new Date(session.expiresAt * 1000).toISOString(),
            }
          : { authenticated: false, claims: null },
        200,
        NO_STORE,
      );
    }
    if (session) return c.html(sitePage(siteId, location, session, base), 200, PAGE_HEADERS);
    const signIn = await askVisitorAuthentication(ctx, executors, target, location);
    return c.body(null, 302, { ...NO_STORE, location: signIn ?? `${base}/` });
  };
  app.get('/sites/:siteId', handle);
  app.get('/sites/:siteId/*', handle);
  return app;
}
