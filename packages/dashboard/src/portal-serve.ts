import { join, normalize, sep } from 'node:path';
import { cacheControlOf, contentTypeOf, fileIfExists, fileResponse } from './serve.js';

/** Where the subscriber portal is on the host's content origin. */
export const PORTAL_PATH = '/portal/';

/** What the portal's headers depend on (see {@link portalHeaders}). */
export interface PortalServeOptions {
  /** Base URL of the content origin as browsers reach it (`http://127.0.0.1:8081`): its scripts come from there. */
  contentBase: string;
  /** Origin of the host API the page calls (`http://127.0.0.1:8080`): its only `connect-src`. */
  apiOrigin: string;
  /** Origins that may frame the page (`PLATFORM_PORTAL_FRAME_ANCESTORS`); empty: none. */
  frameAncestors: readonly string[];
}

/**
 * The portal's Content-Security-Policy: scripts and styles only from its own assets folder (not the
 * rest of the content origin, where integrations answer), API calls only to the host API, no plugin,
 * form target or `<base>`, framed only by the configured origins.
 *
 * @example
 * portalCsp({ contentBase: 'http://127.0.0.1:8081', apiOrigin: 'http://127.0.0.1:8080', frameAncestors: [] });
 * // "default-src 'none'; script-src http://127.0.0.1:8081/portal/assets/; ... frame-ancestors 'none'"
 */
export function portalCsp(options: PortalServeOptions): string {
  const assets = `${options.contentBase.replace(/\/+$/, '')}${PORTAL_PATH}assets/`;
  const ancestors = options.frameAncestors.length ? options.frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'none'",
    `script-src ${assets}`,
    `style-src ${assets}`,
    'img-src data:',
    `connect-src ${options.apiOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/**
 * Headers of every portal response: {@link portalCsp}, `nosniff`, `no-referrer` (the page's URL never
 * leaves in a Referer), and `X-Frame-Options: DENY` for browsers without `frame-ancestors` when no
 * origin may frame it.
 *
 * @example
 * portalHeaders({ contentBase, apiOrigin, frameAncestors: ['https://docs.example.com'] })['content-security-policy'];
 */
export function portalHeaders(options: PortalServeOptions): Record<string, string> {
  return {
    'content-security-policy': portalCsp(options),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...(options.frameAncestors.length ? {} : { 'x-frame-options': 'DENY' }),
  };
}

/**
 * Answers a `GET`/`HEAD` request for the subscriber portal from its built folder (`portalAssets().dir`):
 * `/portal` redirects to `/portal/` (the fragment, which holds the session, stays in the browser),
 * `/portal/` is the page, `/portal/assets/…` its files; anything else under `/portal/` is a 404, and
 * other paths answer `null` (not the portal's).
 *
 * @example
 * const response = await servePortal(request, portalAssets().dir, { contentBase, apiOrigin, frameAncestors: [] });
 * if (response) return response;
 */
export async function servePortal(
  request: Request,
  dir: string,
  options: PortalServeOptions,
): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  let url: URL;
  let path: string;
  try {
    url = new URL(request.url);
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  const headers = portalHeaders(options);
  const head = request.method === 'HEAD';
  if (path === '/portal') {
    return new Response(null, { status: 308, headers: { ...headers, location: `/portal/${url.search}` } });
  }
  if (!path.startsWith(PORTAL_PATH)) return null;
  const relative = normalize(path.slice(PORTAL_PATH.length)).replace(/^([/\\])+/, '');
  const notFound = () =>
    new Response('Not found', {
      status: 404,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' },
    });
  if (relative === '' || relative === '.' || relative === 'index.html') {
    const page = await fileIfExists(join(dir, 'index.html'));
    if (!page) {
      return new Response('The subscriber portal is not built: run `npm run build -w @platform/dashboard`.', {
        status: 503,
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
    return fileResponse(page, head, {
      ...headers,
      'content-type': contentTypeOf('index.html'),
      'cache-control': 'no-cache',
    });
  }
  const inAssets = relative.startsWith(`assets${sep}`) || relative.startsWith('assets/');
  if (!inAssets || relative.split(/[/\\]/).includes('..') || relative.includes('\0')) return notFound();
  const file = await fileIfExists(join(dir, relative));
  if (!file) return notFound();
  return fileResponse(file, head, {
    ...headers,
    'content-type': contentTypeOf(relative),
    'cache-control': cacheControlOf(relative),
  });
}
