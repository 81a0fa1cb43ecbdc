import { createHash } from 'node:crypto';
import { HOST_EVENT } from '@platform/events';
import { HttpError, notFound } from '../errors.js';
import type { ExecutorError } from '../executor/index.js';
import { type ExecutorSelector, invoke } from '../invocation/invoker.js';
import type { InstallationRecord, IntegrationRecord } from '../storage/index.js';
import { contentBase, type HostContext } from './context.js';
import { hasScopeFor, newEventId } from './dispatch.js';

/** Entries the script cache keeps at most, and their bytes at most (the oldest go first). */
export const SCRIPT_CACHE_ENTRIES = 500;
export const SCRIPT_CACHE_BYTES = 16 * 1024 * 1024;
/** How long the host keeps a script: the integration's `max-age`, at most this; this when it gives none. */
export const SCRIPT_CACHE_MAX_SECONDS = 3600;
export const SCRIPT_DEFAULT_SECONDS = 300;

const JAVASCRIPT = /^(application|text)\/(javascript|ecmascript|x-javascript)\s*(;|$)/i;

/** A script as the host serves it: `body` null when the installation has none (204). */
export interface PublishedScript {
  body: Uint8Array | null;
  /** `Cache-Control` for browsers. */
  cacheControl: string;
  etag: string;
}

/** The site installations of a site whose integration may inject a script, with their integration. */
export interface SiteScriptTarget {
  installation: InstallationRecord;
  integration: Pick<IntegrationRecord, 'name' | 'manifest' | 'version' | 'createdAt'>;
}

/**
 * The active installations of `siteId` (oldest first) whose integration has `site:script:inject`,
 * optionally of one integration.
 *
 * @example
 * const targets = await siteScriptTargets(ctx, 'site_1');
 */
export async function siteScriptTargets(
  ctx: HostContext,
  siteId: string,
  integrationName?: string,
): Promise<SiteScriptTarget[]> {
  const out: SiteScriptTarget[] = [];
  const { routes } = await ctx.storage.installations.routes({ siteId });
  for (const { installation, integration } of routes) {
    if (installation.target !== 'site') continue;
    if (integrationName !== undefined && installation.integrationName !== integrationName) continue;
    if (hasScopeFor(integration, HOST_EVENT.fetchPublishedScript)) out.push({ installation, integration });
  }
  return out;
}

/**
 * What a cached script depends on: the installation, its configuration and the integration's published
 * version (its label and publish time: a dev-mode republish of the same label changes the time).
 */
export function scriptVersion(target: SiteScriptTarget): string {
  const { installation, integration } = target;
  return createHash('sha256')
    .update(
      JSON.stringify([
        installation.id,
        integration.version,
        integration.createdAt,
        installation.configuration,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
}

/**
 * Where a site's pages load an installation's script: on the content origin, with the
 * {@link scriptVersion} as `?v=` so a browser never keeps a script of an older configuration.
 *
 * @example
 * publishedScriptUrl(ctx, target); // 'http://127.0.0.1:8081/v1/sites/site_1/integrations/plausible/script.js?v=3f2a...'
 */
export function publishedScriptUrl(ctx: HostContext, target: SiteScriptTarget): string {
  const { installation, integration } = target;
  return `${contentBase(ctx)}/v1/sites/${encodeURIComponent(installation.siteId ?? '')}/integrations/${encodeURIComponent(integration.name)}/script.js?v=${scriptVersion(target)}`;
}

/** `max-age` of a `Cache-Control` value; 0 for `no-store`, `no-cache` or `private`; undefined when absent. */
function maxAgeOf(cacheControl: string | null): number | undefined {
  if (cacheControl === null) return undefined;
  if (/(^|,)\s*(no-store|no-cache|private)\s*(,|$)/i.test(cacheControl)) return 0;
  const match = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl);
  return match ? Number(match[2]) : undefined;
}

/** The integration's answer as a script, or why it is not one. */
async function toScript(response: Response, integration: string): Promise<PublishedScript & { ttl: number }> {
  const given = maxAgeOf(response.headers.get('cache-control'));
  const seconds = Math.min(given ?? SCRIPT_DEFAULT_SECONDS, SCRIPT_CACHE_MAX_SECONDS);
  const cacheControl = given === 0 ? 'no-store' : `public, max-age=${given ?? SCRIPT_DEFAULT_SECONDS}`;
  if (response.status === 204) {
    await response.body?.cancel();
    return { body: null, cacheControl, etag: '"none"', ttl: seconds };
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !JAVASCRIPT.test(type)) {
    await response.body?.cancel();
    throw new HttpError(
      502,
      'invalid_published_script',
      response.status !== 200
        ? `${integration}'s ${HOST_EVENT.fetchPublishedScript} answered HTTP ${response.status}; it must answer a script (200) or nothing (204).`
        : `${integration}'s ${HOST_EVENT.fetchPublishedScript} answered ${type ? `\`${type}\`` : 'no Content-Type'}; a script is served as \`application/javascript\`.`,
    );
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, cacheControl, etag, ttl: seconds };
}

/**
 * Scripts kept per installation, configuration and bundle ({@link scriptVersion}) for the integration's
 * `max-age` (at most {@link SCRIPT_CACHE_MAX_SECONDS}), bounded in entries and bytes; concurrent asks
 * for the same script share one invocation.
 *
 * @example
 * const cache = new PublishedScriptCache();
 * const script = await cache.get(key, () => invokeHook());
 */
export class PublishedScriptCache {
  readonly #entries = new Map<string, { script: PublishedScript; expires: number; size: number }>();
  readonly #pending = new Map<string, Promise<PublishedScript>>();
  #bytes = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits = { entries: SCRIPT_CACHE_ENTRIES, bytes: SCRIPT_CACHE_BYTES },
  ) {}

  /** The cached script of `key`, else the one `load` makes (kept for its `ttl` seconds). */
  async get(key: string, load: () => Promise<PublishedScript & { ttl: number }>): Promise<PublishedScript> {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.now()) return entry.script;
    if (entry) this.#drop(key);
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const loading = load()
      .then(({ ttl, ...script }) => {
        this.#put(key, script, ttl);
        return script;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, loading);
    return loading;
  }

  #put(key: string, script: PublishedScript, ttl: number): void {
    const size = script.body?.byteLength ?? 0;
    if (ttl <= 0 || size > this.limits.bytes) return;
    this.#entries.set(key, { script, expires: this.now() + ttl * 1000, size });
    this.#bytes += size;
    while (this.#entries.size > this.limits.entries || this.#bytes > this.limits.bytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.size;
    this.#entries.delete(key);
  }
}

/** Maps an executor failure to the error the script's caller gets. */
function failure(error: ExecutorError): HttpError {
  return new HttpError(error.code === 'timeout' ? 504 : 502, `integration_${error.code}`, error.message);
}

/**
 * The script of integration `name`'s installation on `siteId` (its oldest active one): from the cache,
 * else by calling its published-script hook (bounded like every invocation: time and response size).
 * 404 when the site has no such installation or the integration lacks `site:script:inject`.
 *
 * @example
 * const script = await publishedScript(ctx, executors, cache, 'site_1', 'plausible');
 */
export async function publishedScript(
  ctx: HostContext,
  executors: ExecutorSelector,
  cache: PublishedScriptCache,
  siteId: string,
  name: string,
): Promise<PublishedScript> {
  const [target] = await siteScriptTargets(ctx, siteId, name);
  if (!target) {
    throw notFound(
      `An active installation of "${name}" with the scope site:script:inject on site "${siteId}"`,
    );
  }
  return cache.get(scriptVersion(target), async () => {
    const integration = await ctx.storage.integrations.getLatest(name);
    if (!integration) throw notFound(`Integration "${name}"`);
    const { installation } = target;
    const outcome = await invoke(ctx, executors, integration, installation, {
      type: HOST_EVENT.fetchPublishedScript,
      eventId: newEventId(),
      installationId: installation.id,
      siteId,
    });
    if (!outcome.ok) throw failure(outcome.error);
    return toScript(outcome.response, name);
  });
}

const caches = new WeakMap<object, PublishedScriptCache>();

/**
 * The script cache of one host (shared by its API and content origins).
 *
 * @example
 * const script = await publishedScript(ctx, executors, scriptCacheOf(ctx), siteId, name);
 */
export function scriptCacheOf(ctx: HostContext): PublishedScriptCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new PublishedScriptCache();
    caches.set(ctx, cache);
  }
  return cache;
}
