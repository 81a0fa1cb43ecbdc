import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/**
 * The Content-Security-Policy of every dashboard response: scripts, styles and API calls from
 * the same origin only; images also as `data:` URLs; no frames, plugins, or foreign form targets.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Content type of a dashboard file, by extension.
 * @example contentTypeOf('/assets/app-3F2A.js'); // 'text/javascript; charset=utf-8'
 */
export function contentTypeOf(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Cache policy: file names carrying a content hash (`name-HASH.ext`, made by the build) never
 * change, so they are cached for a year; everything else (index.html) is revalidated each time.
 * @example cacheControlOf('/assets/app-Q2ZJ7K4M.js'); // 'public, max-age=31536000, immutable'
 */
export function cacheControlOf(path: string): string {
  return /-[A-Z0-9]{8}\.[a-z]+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Where the API reference page is: Swagger UI over `/openapi.json` (built into `dist/public/api-reference`). */
export const API_REFERENCE_PATH = '/api';

/**
 * Paths that belong to the host API and are never answered with the dashboard.
 * @example isApiPath('/v1/installations'); // true
 */
export function isApiPath(path: string): boolean {
  return (
    path === '/v1' ||
    path.startsWith('/v1/') ||
    path === '/healthz' ||
    path === '/openapi.json' ||
    path.startsWith('/openapi')
  );
}

/** Pages the dashboard itself frames (the gallery's webframe demo): framable by the same origin only. */
const FRAMED_PAGES = new Set(['webframe-demo.html']);

/**
 * {@link DASHBOARD_CSP}, letting the dashboard show what ContentKit draws from the host's content
 * origin (webframes and images of public endpoints, docs/security.md): `frame-src` and `img-src`
 * add that origin. Its answers are sandboxed (opaque origin), so framing them reaches nothing of the
 * dashboard.
 *
 * @example dashboardCsp('http://127.0.0.1:8081'); // "... img-src 'self' data: http://127.0.0.1:8081; ... frame-src 'self' http://127.0.0.1:8081"
 */
export function dashboardCsp(contentOrigin?: string): string {
  if (!contentOrigin) return DASHBOARD_CSP;
  return `${DASHBOARD_CSP.replace("img-src 'self' data:", `img-src 'self' data: ${contentOrigin}`)}; frame-src 'self' ${contentOrigin}`;
}

/** Options of {@link serveDashboard} and {@link securityHeaders}. */
export interface DashboardServeOptions {
  /** Origin of the host's integration content (`http://127.0.0.1:8081`), when it has one. */
  contentOrigin?: string;
}

/**
 * Headers every dashboard response carries. `framed`: a page the dashboard frames itself, so
 * `frame-ancestors 'self'` / `SAMEORIGIN` instead of `'none'` / `DENY`.
 */
export function securityHeaders(framed = false, options: DashboardServeOptions = {}): Record<string, string> {
  const csp = dashboardCsp(options.contentOrigin);
  return {
    'content-security-policy': framed ? csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'") : csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': framed ? 'SAMEORIGIN' : 'DENY',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
  };
}

/**
 * The bytes of the file at `path`, or null when there is none (or it is a folder).
 *
 * @example
 * const page = await fileIfExists(join(dir, 'index.html'));
 */
export async function fileIfExists(path: string): Promise<Buffer | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}

/**
 * A 200 answer carrying `file` (no body for a `HEAD` request) with `headers`.
 *
 * @example
 * return fileResponse(page, request.method === 'HEAD', { 'content-type': 'text/html; charset=utf-8' });
 */
export function fileResponse(file: Buffer, head: boolean, headers: Record<string, string>): Response {
  return new Response(head ? null : new Uint8Array(file), { status: 200, headers });
}

/**
 * Answers a `GET`/`HEAD` request for the dashboard from the built assets folder: a file when one
 * matches the path, `index.html` for any other non-API path (the app routes in the browser),
 * `null` for API paths and other methods (let the API answer). Missing files under `/assets/`
 * are a plain 404 (a stale page asking for an old bundle must not get HTML as JavaScript).
 *
 * @example
 * const response = await serveDashboard(request, dashboardAssets().dir);
 * if (response) return response;
 */
export async function serveDashboard(
  request: Request,
  dir: string,
  options: DashboardServeOptions = {},
): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return null;
  }
  if (isApiPath(path)) return null;
  const head = request.method === 'HEAD';
  // an HTML page's: revalidated on every load
  const pageHeaders = {
    'content-type': TYPES['.html']!,
    'cache-control': 'no-cache',
    ...securityHeaders(false, options),
  };
  if (path === API_REFERENCE_PATH || path === `${API_REFERENCE_PATH}/`) {
    const page = await fileIfExists(join(dir, 'api-reference', 'index.html'));
    if (page)
      return fileResponse(page, head, {
        ...pageHeaders,
        // Swagger UI writes style attributes in its markup; scripts stay same-origin files only.
        'content-security-policy': dashboardCsp(options.contentOrigin).replace(
          "style-src 'self'",
          "style-src 'self' 'unsafe-inline'",
        ),
      });
  }
  const relative = normalize(path).replace(/^([/\\])+/, '');
  const inside = relative !== '' && !relative.split(sep).includes('..') && !relative.includes('\0');
  const file = inside ? await fileIfExists(join(dir, relative)) : null;
  if (file && !relative.endsWith('index.html')) {
    return fileResponse(file, head, {
      'content-type': contentTypeOf(relative),
      'cache-control': cacheControlOf(relative),
      ...securityHeaders(FRAMED_PAGES.has(relative), options),
    });
  }
  if (relative.startsWith('assets/') || relative.startsWith(`assets${sep}`)) {
    return new Response('Not found', {
      status: 404,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-cache',
        ...securityHeaders(false, options),
      },
    });
  }
  const index = await fileIfExists(join(dir, 'index.html'));
  if (!index) {
    return new Response(
      'The dashboard is not built: run `npm run build` (or `npm run build -w @platform/dashboard`).',
      { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } },
    );
  }
  return fileResponse(index, head, pageHeaders);
}
