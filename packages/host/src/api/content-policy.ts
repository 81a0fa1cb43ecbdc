import { cspDirectives, cspSourceProblem, type Manifest, parseHostSource } from '@platform/manifest';
import { contentBase, type HostContext } from '../services/context.js';
import { INTEGRATION_CONTENT_CSP } from './isolation.js';

/** Stands for the content origin in {@link BASELINE_SOURCES}. */
const CONTENT = 'content-origin';

/**
 * The host's own fetch directives for integration content (docs/security.md "The integration's own
 * policy"): the content origin, inline script and style (webframe pages are usually one HTML file),
 * and local data. Everything else must be named by the manifest's `contentSecurityPolicy`.
 */
export const BASELINE_SOURCES: Readonly<Record<string, readonly string[]>> = {
  'default-src': [CONTENT],
  'script-src': [CONTENT, "'unsafe-inline'"],
  'style-src': [CONTENT, "'unsafe-inline'"],
  'img-src': [CONTENT, 'data:', 'blob:'],
  'font-src': [CONTENT, 'data:'],
  'connect-src': [CONTENT],
  'media-src': [CONTENT, 'data:', 'blob:'],
  'frame-src': [CONTENT],
  'child-src': [CONTENT, 'blob:'],
  'worker-src': [CONTENT, 'blob:'],
  'form-action': [CONTENT],
};

/** Directives that fall back to `default-src`: a manifest's `default-src` sources are added to each. */
const FETCH_DIRECTIVES = Object.keys(BASELINE_SOURCES).filter((d) => d !== 'form-action');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Origins a manifest source may never name: the API's and the dashboard's. */
export interface ContentOrigins {
  /** The content origin (`PLATFORM_CONTENT_URL`), what `'self'` stands for. */
  content: string;
  /** The operator's origins: the API's public URL, and the address it listens on. */
  operator: readonly string[];
}

/** Whether a host-source of the manifest would match one of the operator's origins. */
function namesOperator(source: string, operator: readonly string[]): boolean {
  const parsed = parseHostSource(source);
  if (!parsed) return false;
  return operator.some((origin) => {
    const url = new URL(origin);
    const host = url.hostname.toLowerCase();
    const sameHost =
      parsed.host === host ||
      (parsed.host.startsWith('*.') && host.endsWith(parsed.host.slice(1))) ||
      (LOOPBACK.has(parsed.host) && LOOPBACK.has(host));
    if (!sameHost) return false;
    const port = url.port || DEFAULT_PORTS[url.protocol] || '';
    if (parsed.port === '*' || parsed.port === port) return true;
    // No port: the scheme's default port (the served page's scheme when the source names none).
    const scheme = parsed.scheme ? `${parsed.scheme}:` : url.protocol;
    return parsed.port === undefined && DEFAULT_PORTS[scheme] === port;
  });
}

/**
 * The sources a manifest's `contentSecurityPolicy` adds, per directive, as the host uses them: valid
 * source expressions only (a manifest stored before they were checked may hold others), `'self'` as
 * the content origin, none naming an operator origin, no `frame-ancestors` (the host leaves framing
 * open).
 *
 * @example
 * ```ts
 * manifestSources("script-src 'self' https://plausible.io", { content: 'http://127.0.0.1:8081', operator: [] });
 * // { 'script-src': ['http://127.0.0.1:8081', 'https://plausible.io'] }
 * ```
 */
export function manifestSources(
  policy: Manifest['contentSecurityPolicy'],
  origins: ContentOrigins,
): Record<string, string[]> {
  const content = new URL(origins.content).origin;
  const out: Record<string, string[]> = {};
  for (const [directive, sources] of Object.entries(cspDirectives(policy))) {
    if (directive === 'frame-ancestors' || !Object.hasOwn(BASELINE_SOURCES, directive)) continue;
    for (const raw of sources) {
      if (cspSourceProblem(raw) !== undefined) continue;
      const source = raw.toLowerCase() === "'self'" ? content : raw;
      if (source !== content && namesOperator(source, origins.operator)) continue;
      const list = out[directive] ?? [];
      if (!list.includes(source)) list.push(source);
      out[directive] = list;
    }
  }
  return out;
}

/**
 * The policy the host puts on everything an integration answers: {@link INTEGRATION_CONTENT_CSP}, then
 * {@link BASELINE_SOURCES} with the {@link manifestSources} added per directive (a manifest's
 * `default-src` sources to every fetch directive).
 *
 * @example
 * ```ts
 * contentPolicy({ 'script-src': 'https://plausible.io' }, { content: 'http://127.0.0.1:8081', operator: ['http://127.0.0.1:8080'] });
 * // "sandbox allow-scripts allow-forms allow-popups; default-src http://127.0.0.1:8081; script-src http://127.0.0.1:8081 'unsafe-inline' https://plausible.io; ..."
 * ```
 */
export function contentPolicy(policy: Manifest['contentSecurityPolicy'], origins: ContentOrigins): string {
  const content = new URL(origins.content).origin;
  const directives = new Map<string, string[]>(
    Object.entries(BASELINE_SOURCES).map(([d, sources]) => [
      d,
      sources.map((s) => (s === CONTENT ? content : s)),
    ]),
  );
  for (const [directive, sources] of Object.entries(manifestSources(policy, origins))) {
    for (const target of directive === 'default-src' ? FETCH_DIRECTIVES : [directive]) {
      const list = directives.get(target);
      for (const source of sources) if (list && !list.includes(source)) list.push(source);
    }
  }
  const parts = [...directives].map(([d, sources]) => `${d} ${sources.join(' ')}`);
  return [INTEGRATION_CONTENT_CSP, ...parts].join('; ');
}

/** The content origin and the operator's origins of this host. */
export function contentOrigins(
  ctx: Pick<HostContext, 'baseUrl' | 'contentBaseUrl' | 'config'>,
): ContentOrigins {
  const { hostname, port } = ctx.config;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  const listening = port > 0 ? [`http://${host}:${port}`] : [];
  return { content: contentBase(ctx), operator: [ctx.baseUrl(), ...listening] };
}

/**
 * {@link contentPolicy} of one integration on this host.
 *
 * @example
 * ```ts
 * return isolateIntegrationResponse(outcome.response, 'content', contentPolicyOf(ctx, integration));
 * ```
 */
export function contentPolicyOf(
  ctx: Pick<HostContext, 'baseUrl' | 'contentBaseUrl' | 'config'>,
  integration: { manifest: Record<string, unknown> },
): string {
  return contentPolicy((integration.manifest as Manifest).contentSecurityPolicy, contentOrigins(ctx));
}
