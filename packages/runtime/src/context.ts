import type { ApiClient, IntegrationEnvironment } from '@platform/api-client';
import { isRecord } from '@platform/api-client';
import type { Logger } from './logs';
import type { IntegrationTasks } from './tasks';

/**
 * What every handler receives besides its event or request.
 *
 * @example
 * async function handler(event: SpaceContentUpdatedEvent, context: IntegrationContext) {
 *   context.logger.info('space changed', event.spaceId);
 *   context.waitUntil(fetch('https://example.com/hook', { method: 'POST' }));
 * }
 */
export interface IntegrationContext {
  /** The normalized `environment` part of the envelope. */
  environment: IntegrationEnvironment;
  /** Host API client authenticated with `environment.apiTokens.installation`. */
  api: ApiClient;
  /** The integration's own platform calls: `queueTask` (docs/tasks.md). */
  integration: IntegrationTasks;
  /** Keeps work running after the answer is sent (its logs are not captured). */
  waitUntil(promise: Promise<unknown>): void;
  /** Logger whose lines are returned to the host with the invocation. */
  logger: Logger;
  /** The worker's own bindings (e.g. `PLATFORM_SIGNING_SECRET`). */
  env: Record<string, unknown>;
  /**
   * The W3C trace context of this invocation, when the host traces (docs/operations.md "Tracing"): pass it
   * on as the `traceparent` header of your own requests to continue the event's trace.
   */
  traceparent?: string;
}

/**
 * A handler of HTTP requests: the integration's `fetch`, or a helper such as
 * `createOAuthHandler(...)`.
 * @example const handler: FetchHandler = async () => new Response('ok');
 */
export type FetchHandler = (request: Request, context: IntegrationContext) => Response | Promise<Response>;

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `urls` with `publicContentEndpoint`, the public endpoint under its other name, when a host sent only the one. */
function normalizeUrls(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) return {};
  return typeof value.publicContentEndpoint !== 'string' && typeof value.publicEndpoint === 'string'
    ? { ...value, publicContentEndpoint: value.publicEndpoint }
    : value;
}

function normalizeInstallationShape<T>(value: unknown): T | undefined {
  if (!isRecord(value)) return undefined;
  return {
    ...value,
    configuration: isRecord(value.configuration) ? value.configuration : {},
    externalIds: Array.isArray(value.externalIds) ? value.externalIds : [],
    urls: normalizeUrls(value.urls),
  } as T;
}

/**
 * Fills defaults so handlers can rely on the documented shape: `secrets` and
 * `apiTokens` are string maps, `integration.urls` exists, and installation shapes
 * that are present always have `configuration`, `externalIds` and `urls`; `integration.externalLinks`
 * is a list; every `urls` with a
 * `publicEndpoint` has `publicContentEndpoint` too (the same URL).
 * Call only on a value that passed `describeEnvironmentProblem`.
 *
 * @example const environment = normalizeEnvironment(JSON.parse(part));
 */
export function normalizeEnvironment(raw: Record<string, unknown>): IntegrationEnvironment {
  const integration = isRecord(raw.integration) ? raw.integration : {};
  const environment = {
    ...raw,
    apiEndpoint: String(raw.apiEndpoint),
    apiTokens: { installation: '', ...stringRecord(raw.apiTokens) },
    secrets: stringRecord(raw.secrets),
    integration: {
      name: '',
      version: '',
      title: '',
      ...integration,
      urls: normalizeUrls(integration.urls),
      externalLinks: Array.isArray(integration.externalLinks) ? integration.externalLinks : [],
    },
  } as unknown as IntegrationEnvironment;
  const installation = normalizeInstallationShape<IntegrationEnvironment['installation']>(raw.installation);
  if (installation) {
    environment.installation = {
      ...installation,
      space_selection:
        isRecord(raw.installation) && isRecord(raw.installation.space_selection)
          ? (raw.installation.space_selection as never)
          : { mode: 'all', spaces: [] },
    };
  }
  const space = normalizeInstallationShape<IntegrationEnvironment['spaceInstallation']>(
    raw.spaceInstallation,
  );
  if (space) environment.spaceInstallation = space;
  const site = normalizeInstallationShape<IntegrationEnvironment['siteInstallation']>(raw.siteInstallation);
  if (site) environment.siteInstallation = site;
  return environment;
}

/**
 * The public endpoint of the current installation (installation URL first, then the integration's).
 * @example const redirect = `${publicEndpointOf(context.environment)}/oauth`;
 */
export function publicEndpointOf(environment: IntegrationEnvironment): string | undefined {
  const url =
    environment.spaceInstallation?.urls.publicEndpoint ??
    environment.siteInstallation?.urls.publicEndpoint ??
    environment.installation?.urls.publicEndpoint ??
    environment.integration.urls.publicEndpoint;
  return typeof url === 'string' && url !== '' ? url.replace(/\/+$/, '') : undefined;
}

/**
 * The path of a request below the installation's public endpoint (`/oauth`, `/webhook`, ...);
 * `/` for the endpoint itself. Falls back to the URL's own path when the request is elsewhere.
 *
 * @example
 * switch (publicPath(request, context)) { case '/oauth': return oauth(request, context); }
 */
export function publicPath(request: Request, context: IntegrationContext): string {
  const path = new URL(request.url).pathname;
  const base = publicEndpointOf(context.environment);
  const basePath = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) {
    return path.slice(basePath.length) || '/';
  }
  return path;
}
