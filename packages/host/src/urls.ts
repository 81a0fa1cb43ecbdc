import type { Manifest } from '@platform/manifest';
import type { IntegrationRecord } from './storage/index.js';

/**
 * The URLs the host gives out (API base, content origin, public endpoints, assets): pure functions of the
 * two base URLs, shared by the operator's use cases (`services/`) and the invocation of integration code
 * (`invocation/`, the environment of an envelope).
 *
 * @example
 * const bases: HostUrls = { baseUrl: () => 'http://127.0.0.1:8080' };
 */
export interface HostUrls {
  /** Base URL the host's API is reachable at. */
  baseUrl(): string;
  /** Base URL of the origin that serves integration content; default `baseUrl()`. */
  contentBaseUrl?(): string;
}

/**
 * Base URL of integration content (public endpoints): the content origin's, else the API's.
 *
 * @example
 * contentBase({ baseUrl: () => 'http://127.0.0.1:8080' }); // 'http://127.0.0.1:8080'
 */
export function contentBase(ctx: HostUrls): string {
  return ctx.contentBaseUrl?.() ?? ctx.baseUrl();
}

/**
 * Public endpoint of an installation; every path below it reaches the integration's `fetch`.
 *
 * @example
 * publicEndpoint(ctx, 'hello', 'inst_1'); // 'http://127.0.0.1:8080/v1/integrations/hello/installations/inst_1/public'
 */
export function publicEndpoint(ctx: HostUrls, integrationName: string, installationId: string): string {
  return `${contentBase(ctx)}/v1/integrations/${encodeURIComponent(integrationName)}/installations/${installationId}/public`;
}

/**
 * The URL an asset is served at (`GET /v1/assets/{hash}`).
 *
 * @example
 * assetUrl(ctx, '3f2a…'); // 'http://127.0.0.1:8080/v1/assets/3f2a…'
 */
export function assetUrl(ctx: Pick<HostUrls, 'baseUrl'>, hash: string): string {
  return `${ctx.baseUrl()}/v1/assets/${hash}`;
}

/**
 * Where the host serves the integration's manifest `icon`, or null when it was not uploaded: the
 * API's `iconUrl` and the environment's `integration.urls.icon`.
 *
 * @example
 * const icon = integrationIconUrl(ctx, record); // 'http://127.0.0.1:8080/v1/assets/3f2a…' or null
 */
export function integrationIconUrl(
  ctx: Pick<HostUrls, 'baseUrl'>,
  record: Pick<IntegrationRecord, 'manifest' | 'assets'>,
): string | null {
  const icon = (record.manifest as Manifest).icon;
  const hash = icon === undefined ? undefined : record.assets?.[icon];
  return hash ? assetUrl(ctx, hash) : null;
}
